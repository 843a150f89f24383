import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { LinkButton } from '@/components/common/LinkButton';
import type { Offering } from './offerings';

/** Hidden on screen, read by screen readers: says which offering a "Documentation" link is for. */
const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;

/** An offering; one that is not available yet says so and has no button that looks usable. */
export function OfferingCard({ offering }: { offering: Offering }) {
  const available = offering.href !== undefined;
  const headingId = `offering-${offering.id}`;
  return (
    <Card
      component="article"
      aria-labelledby={headingId}
      // Unavailable offerings are marked by the chip and a dashed border, never by fading (contrast).
      sx={{ display: 'flex', flexDirection: 'column', borderStyle: available ? 'solid' : 'dashed' }}
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
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 0.5, columnGap: 1 }}
        >
          <Typography component="dt" variant="body2" color="text.secondary">
            Owner
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {offering.owner}
          </Typography>
          <Typography component="dt" variant="body2" color="text.secondary">
            Rough cost
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {offering.cost}
          </Typography>
          <Typography component="dt" variant="body2" color="text.secondary">
            Runs on
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {offering.provider}
          </Typography>
        </Box>
        <Link
          href={offering.docsUrl}
          target="_blank"
          rel="noopener noreferrer"
          variant="body2"
          sx={{ display: 'inline-block', mt: 1 }}
        >
          Documentation<Box component="span" sx={visuallyHidden}>{` for ${offering.title} (opens in a new tab)`}</Box>
        </Link>
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
