import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';

/** Skeleton shown while a page's server data loads. */
export function LoadingState({ label = 'Loading' }: { label?: string }) {
  return (
    <Box role="status" aria-label={label} aria-busy="true">
      <Skeleton variant="text" width="40%" height={48} />
      <Skeleton variant="text" width="70%" />
      <Skeleton variant="rounded" height={220} sx={{ mt: 2 }} />
    </Box>
  );
}
