import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { formatTimestamp } from './format';

/** What an inventory read could see: the cluster, and Azure when the portal observes it. */
export interface InventorySourcesProps {
  inventory: {
    clusterAvailable: boolean;
    observedAt?: string;
    cloud: { status: 'unconfigured' | 'observed' | 'unavailable'; observedAt?: string; reason?: string };
  };
}

/** Says when the list is not what the cluster and Azure hold right now, and since when. */
export function InventorySources({ inventory }: InventorySourcesProps) {
  const { clusterAvailable, observedAt, cloud } = inventory;
  if (clusterAvailable && cloud.status !== 'unavailable') return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }}>
      {clusterAvailable ? null : (
        <Alert severity="warning" role="status">
          The cluster cannot be reached. This list is the intent the portal recorded, not what the cluster holds
          {observedAt ? `; the last successful cluster read was at ${formatTimestamp(observedAt)}` : ''}. Changes are
          refused until the cluster answers again.
        </Alert>
      )}
      {cloud.status === 'unavailable' ? (
        <Alert severity="info" role="status">
          Azure cannot be read right now ({cloud.reason ?? 'no reason given'}), so no account is shown as in sync
          {cloud.observedAt ? `; the last successful read was at ${formatTimestamp(cloud.observedAt)}` : ''}.
        </Alert>
      ) : null}
    </Stack>
  );
}
