import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { StorageAccount } from '@/lib/platform/types';
import { formatTimestamp } from './format';
import { DesiredObservedList, Section } from './ResourceDetail';
import { ResyncButton } from './ResyncButton';

/** Is the account as it was asked for? Crossplane's verdict, the differences, and a resync. */
export function SyncSection({ account }: { account: StorageAccount }) {
  const { sync } = account;
  const deleting = account.state === 'Deleting';
  return (
    <Section title="Desired and observed state">
      <Box sx={{ display: 'grid', gap: 2 }}>
        {sync.inSync ? (
          <Alert severity="success" role="status">
            <AlertTitle>In sync</AlertTitle>
            Crossplane reports no problem, and Azure reports what the spec asks for.
          </Alert>
        ) : (
          <Alert severity="warning" role="status">
            <AlertTitle>Out of sync</AlertTitle>
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {sync.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </Box>
          </Alert>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <ResyncButton name={account.name} disabled={deleting} />
          <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 16rem' }}>
            Resync asks Crossplane to compare the account with Azure and apply the spec now, instead of at its next
            scheduled check.
            {sync.resyncRequestedAt
              ? ` Last requested ${formatTimestamp(sync.resyncRequestedAt)}${sync.resyncRequestedBy ? ` by ${sync.resyncRequestedBy}` : ''}${
                  sync.resyncHandledAt === sync.resyncRequestedAt ? '; Crossplane has handled it.' : '.'
                }`
              : ''}
          </Typography>
        </Box>
        <DesiredObservedList account={account} />
      </Box>
    </Section>
  );
}
