import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { StorageAccount } from '@/lib/platform/types';
import { formatTimestamp } from './format';
import { DesiredObservedList, Section } from './ResourceDetail';
import { ResyncButton } from './ResyncButton';

/**
 * Crossplane's report is as old as its last reconcile; when the portal's own read of Azure says
 * otherwise, or Azure cannot be read, the section must not call the account in sync.
 */
const UNCONFIRMED: Partial<Record<string, string>> = {
  drifted:
    'Crossplane has not seen it yet, but Azure holds other values than intent (see Intent). Resync asks Crossplane to look now and apply the spec.',
  observation_unavailable:
    'The portal cannot read Azure right now, so it cannot confirm that Azure holds what the spec asks for (see Intent).',
};

/** Is the account as it was asked for? Crossplane's verdict, the differences, and a resync. */
export function SyncSection({ account }: { account: StorageAccount }) {
  const { sync } = account;
  const deleting = account.state === 'Deleting';
  const unconfirmed = UNCONFIRMED[account.classification?.code ?? ''];
  return (
    <Section title="Desired and observed state">
      <Box sx={{ display: 'grid', gap: 2 }}>
        {sync.inSync && unconfirmed ? (
          <Alert severity="info" role="status">
            <AlertTitle>Crossplane reports no problem</AlertTitle>
            {unconfirmed}
          </Alert>
        ) : sync.inSync ? (
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
