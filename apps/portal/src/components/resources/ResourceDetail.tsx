import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { Condition, PlatformEvent, StorageAccount } from '@/lib/platform/types';
import { formatTimestamp } from './format';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: 2, minWidth: 0 }}>
      <Typography variant="h2" id={id} gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(10rem, max-content) 1fr' },
        columnGap: 2,
        rowGap: 0.5,
        m: 0,
      }}
    >
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary" variant="body2">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
            {value ?? '—'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export function SummarySection({ account }: { account: StorageAccount }) {
  return (
    <Section title="Summary">
      <Facts
        items={[
          ['Application', account.application],
          ['Environment', account.environment],
          ['Resource group', account.resourceGroup],
          ['Location', account.location],
          ['Account kind', account.kind],
          ['SKU', account.sku],
          ['Access tier', account.accessTier],
          ['Created', formatTimestamp(account.createdAt)],
          ['Requested by', account.requestedBy],
          ['Request id', account.requestId],
          ...(account.externalName ? ([['Name in Azure', account.externalName]] as [string, ReactNode][]) : []),
          ...(account.deletionRequestedAt
            ? ([['Deletion requested', formatTimestamp(account.deletionRequestedAt)]] as [string, ReactNode][])
            : []),
          ...(account.deletionRequestedBy
            ? ([['Deletion requested by', account.deletionRequestedBy]] as [string, ReactNode][])
            : []),
        ]}
      />
    </Section>
  );
}

export function SettingsSection({ account }: { account: StorageAccount }) {
  const s = account.settings;
  return (
    <Section title="Network and security">
      <Facts
        items={[
          ['Public network access', yesNo(s.publicNetworkAccess)],
          ['Allowed IP ranges', s.allowedIpRanges.length > 0 ? s.allowedIpRanges.join(', ') : 'None'],
          ['HTTPS only', yesNo(s.httpsOnly)],
          ['Minimum TLS version', s.minTlsVersion],
          ['Shared key access', yesNo(s.sharedKeyAccess)],
          ['Hierarchical namespace', yesNo(s.hierarchicalNamespace)],
          ['SFTP', yesNo(s.sftpEnabled)],
          ['NFSv3', yesNo(s.nfsv3Enabled)],
          ['Public nested items allowed', yesNo(s.allowNestedItemsToBePublic)],
          ['Cross-tenant replication', yesNo(s.crossTenantReplication)],
          ['Infrastructure encryption', yesNo(s.infrastructureEncryption)],
        ]}
      />
    </Section>
  );
}

export function ObservedSection({ account }: { account: StorageAccount }) {
  const o = account.observed;
  const entries: [string, ReactNode][] = [
    ['Azure resource id', o.id],
    ['Primary location', o.primaryLocation],
    ['Secondary location', o.secondaryLocation],
    ['Blob endpoint', o.primaryBlobEndpoint],
    ['Data Lake endpoint', o.primaryDfsEndpoint],
    ['File endpoint', o.primaryFileEndpoint],
    ['Static website endpoint', o.primaryWebEndpoint],
  ];
  const known = entries.filter(([, value]) => value !== undefined);
  return (
    <Section title="Observed in Azure">
      {known.length > 0 ? (
        <Facts items={known} />
      ) : (
        <Typography color="text.secondary" variant="body2">
          Azure has not reported this account yet.
        </Typography>
      )}
    </Section>
  );
}

export function ConditionsSection({ conditions }: { conditions: Condition[] }) {
  return (
    <Section title="Conditions">
      {conditions.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          No conditions reported yet.
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Conditions">
            <TableHead>
              <TableRow>
                <TableCell>Type</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Reason</TableCell>
                <TableCell>Message</TableCell>
                <TableCell>Since</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {conditions.map((condition) => (
                <TableRow key={condition.type}>
                  <TableCell>{condition.type}</TableCell>
                  <TableCell>{condition.status}</TableCell>
                  <TableCell>{condition.reason ?? '—'}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{condition.message ?? '—'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(condition.lastTransitionTime)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Section>
  );
}

export function EventsSection({ events }: { events: PlatformEvent[] }) {
  return (
    <Section title="Events">
      {events.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          No events.
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Events">
            <TableHead>
              <TableRow>
                <TableCell>Type</TableCell>
                <TableCell>Reason</TableCell>
                <TableCell>Message</TableCell>
                <TableCell>Count</TableCell>
                <TableCell>Last seen</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {events.map((event, index) => (
                <TableRow key={`${event.reason}-${index}`}>
                  <TableCell>{event.type}</TableCell>
                  <TableCell>{event.reason}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{event.message}</TableCell>
                  <TableCell>{event.count}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatTimestamp(event.lastTimestamp ?? event.firstTimestamp)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Section>
  );
}

export function YamlSection({ yaml }: { yaml: string }) {
  return (
    <Section title="YAML">
      <Box
        component="pre"
        tabIndex={0}
        aria-label="The resource as YAML"
        sx={{ m: 0, p: 2, overflow: 'auto', maxHeight: 480, bgcolor: 'action.hover', borderRadius: 1, fontSize: 13 }}
      >
        {yaml}
      </Box>
    </Section>
  );
}
