import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { LinkButton } from '@/components/common/LinkButton';
import type { Offering } from './offerings';

/** An offering; one that is not available yet says so and has no button that looks usable. */
export function OfferingCard({ offering }: { offering: Offering }) {
  const available = offering.href !== undefined;
  const headingId = `offering-${offering.id}`;
  return (
    <Card
      component="article"
      aria-labelledby={headingId}
      sx={{ display: 'flex', flexDirection: 'column', opacity: available ? 1 : 0.75 }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Chip
          size="small"
          label={available ? 'Available' : 'Coming soon'}
          color={available ? 'success' : 'default'}
          variant={available ? 'filled' : 'outlined'}
          sx={{ mb: 1 }}
        />
        <Typography variant="h3" component="h2" id={headingId} gutterBottom>
          {offering.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {offering.summary}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {offering.provider}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        {available && offering.href ? (
          <LinkButton href={offering.href} variant="contained" aria-label={`Request an ${offering.title}`}>
            Request
          </LinkButton>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Not available yet
          </Typography>
        )}
      </CardActions>
    </Card>
  );
}
