import Typography from '@mui/material/Typography';
import { LinkButton } from '@/components/common/LinkButton';

export default function ResourceNotFound() {
  return (
    <>
      <Typography variant="h1" gutterBottom>
        Resource not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The platform has no storage account by that name. It may have been deleted.
      </Typography>
      <LinkButton href="/resources" variant="contained">
        Back to the inventory
      </LinkButton>
    </>
  );
}
