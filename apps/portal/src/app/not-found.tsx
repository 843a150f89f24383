import Typography from '@mui/material/Typography';
import { LinkButton } from '@/components/common/LinkButton';

export default function NotFound() {
  return (
    <>
      <Typography variant="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        There is nothing at this address.
      </Typography>
      <LinkButton href="/" variant="contained">
        Go to the overview
      </LinkButton>
    </>
  );
}
