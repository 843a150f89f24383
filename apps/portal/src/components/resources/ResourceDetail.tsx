import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { CopyButton } from '@/components/common/CopyButton';
import { formatAccountKind, formatSetting, formatSku, formatTlsVersion, yesNo } from '@/lib/platform/display';
import { SETTING_LABELS } from '@/lib/platform/setting-labels';
import { settingsInEffect, type OwnedField } from '@/lib/platform/owned-settings';
import type { Condition, PlatformEvent, StorageAccount } from '@/lib/platform/types';
import { formatTimestamp } from './format';

export function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <Paper component="section" aria-labelledby={id} sx={{ p: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Typography variant="h2" id={id} gutterBottom>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

type Fact = [string, ReactNode];

function Facts({ items }: { items: Fact[] }) {
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

/** A value people copy often (ids, endpoints), with a button that copies it. */
function Copyable({ value, label, href }: { value: string | undefined; label: string; href?: boolean }) {
  if (!value) return <>—</>;
  return (
    <>
      {href ? (
        <Link href={value} target="_blank" rel="noopener noreferrer">
          {value}
        </Link>
      ) : (
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {value}
        </Box>
      )}
      <CopyButton value={value} label={`Copy ${label}`} />
    </>
  );
}

export function SummarySection({ account }: { account: StorageAccount }) {
  const items: Fact[] = [
    ['Name', <Copyable key="name" value={account.name} label="name" />],
    ['Application', account.application],
    ['Environment', account.environment],
    ['Resource group', account.resourceGroup],
    ['Location', account.location],
    ['Account kind', formatAccountKind(account.kind)],
    ['Performance and replication', formatSku(account.sku)],
    ['Access tier', account.accessTier],
    ['Created', formatTimestamp(account.createdAt)],
    ['Requested by', account.requestedBy],
    ['Request id', <Copyable key="request" value={account.requestId} label="request id" />],
    ['Kubernetes uid', <Copyable key="uid" value={account.uid} label="Kubernetes uid" />],
  ];
  if (account.externalName) items.push(['Name in Azure', account.externalName]);
  if (account.lastChangedBy) {
    items.push(['Last changed', `${formatTimestamp(account.lastChangedAt)} by ${account.lastChangedBy}`]);
  }
  if (account.deletionRequestedAt) items.push(['Deletion requested', formatTimestamp(account.deletionRequestedAt)]);
  if (account.deletionRequestedBy) items.push(['Deletion requested by', account.deletionRequestedBy]);
  return (
    <Section title="Summary">
      <Facts items={items} />
    </Section>
  );
}

export function SettingsSection({ account }: { account: StorageAccount }) {
  const s = settingsInEffect(account.desired, account.reported);
  return (
    <Section title="Network and security">
      <Facts
        items={[
          [SETTING_LABELS.publicNetworkAccess, yesNo(s.publicNetworkAccess)],
          [SETTING_LABELS.allowedIpRanges, s.allowedIpRanges.length > 0 ? s.allowedIpRanges.join(', ') : 'None'],
          [SETTING_LABELS.httpsOnly, yesNo(s.httpsOnly)],
          [SETTING_LABELS.minTlsVersion, formatTlsVersion(s.minTlsVersion)],
          [SETTING_LABELS.sharedKeyAccess, yesNo(s.sharedKeyAccess)],
          [SETTING_LABELS.hierarchicalNamespace, yesNo(s.hierarchicalNamespace)],
          [SETTING_LABELS.sftpEnabled, yesNo(s.sftpEnabled)],
          [SETTING_LABELS.nfsv3Enabled, yesNo(s.nfsv3Enabled)],
          [SETTING_LABELS.allowNestedItemsToBePublic, yesNo(s.allowNestedItemsToBePublic)],
          [SETTING_LABELS.crossTenantReplication, yesNo(s.crossTenantReplication)],
          [SETTING_LABELS.infrastructureEncryption, yesNo(s.infrastructureEncryption)],
        ]}
      />
    </Section>
  );
}

export function ObservedSection({ account }: { account: StorageAccount }) {
  const o = account.observed;
  const endpoint = (label: string, value: string | undefined): Fact | undefined =>
    value ? [label, <Copyable key={label} value={value} label={label.toLowerCase()} href />] : undefined;
  const entries = [
    o.id ? (['Azure resource id', <Copyable key="id" value={o.id} label="Azure resource id" />] as Fact) : undefined,
    o.primaryLocation ? (['Primary location', o.primaryLocation] as Fact) : undefined,
    o.secondaryLocation ? (['Secondary location', o.secondaryLocation] as Fact) : undefined,
    endpoint('Blob endpoint', o.primaryBlobEndpoint),
    endpoint('Data Lake endpoint', o.primaryDfsEndpoint),
    endpoint('File endpoint', o.primaryFileEndpoint),
    endpoint('Static website endpoint', o.primaryWebEndpoint),
  ].filter((entry): entry is Fact => entry !== undefined);
  return (
    <Section title="Observed in Azure">
      {entries.length > 0 ? (
        <Facts items={entries} />
      ) : (
        <Typography color="text.secondary" variant="body2">
          Azure has not reported this account yet.
        </Typography>
      )}
    </Section>
  );
}

/**
 * Records shown as a list of small blocks rather than a table: it reflows on a phone, never
 * scrolls sideways, and reads in order with a screen reader.
 */
export function RecordList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="ul" aria-label={label} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
      {children}
    </Box>
  );
}

export function RecordItem({ title, meta, children }: { title: ReactNode; meta?: ReactNode; children?: ReactNode }) {
  return (
    <Box
      component="li"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, py: 1, minWidth: 0, overflowWrap: 'anywhere' }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'baseline', justifyContent: 'space-between' }}>
        <Typography variant="body2" component="div" sx={{ fontWeight: 600, m: 0 }}>
          {title}
        </Typography>
        {meta ? (
          <Typography variant="body2" color="text.secondary" component="p" sx={{ m: 0 }}>
            {meta}
          </Typography>
        ) : null}
      </Box>
      {children ? (
        <Typography variant="body2" component="div" sx={{ mt: 0.5 }}>
          {children}
        </Typography>
      ) : null}
    </Box>
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
        <RecordList label="Conditions">
          {conditions.map((condition) => (
            <RecordItem
              key={condition.type}
              title={`${condition.type}: ${condition.status}${condition.reason ? ` (${condition.reason})` : ''}`}
              meta={`since ${formatTimestamp(condition.lastTransitionTime)}`}
            >
              {condition.message}
            </RecordItem>
          ))}
        </RecordList>
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
        <RecordList label="Events">
          {events.map((event, index) => (
            <RecordItem
              key={`${event.reason}-${index}`}
              title={
                <>
                  {event.type === 'Warning' ? (
                    <Chip size="small" color="warning" variant="outlined" label="Warning" sx={{ mr: 1 }} />
                  ) : null}
                  {event.reason}
                </>
              }
              meta={`${event.count > 1 ? `${event.count} times, last ` : ''}${formatTimestamp(event.lastTimestamp ?? event.firstTimestamp)}`}
            >
              {event.message}
            </RecordItem>
          ))}
        </RecordList>
      )}
    </Section>
  );
}

export function YamlSection({ yaml }: { yaml: string }) {
  return (
    <Section title="YAML" action={<CopyButton value={yaml} label="Copy YAML" />}>
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

/** The settings compared between spec and Azure, in the order and words of the owned settings. */
const COMPARED_SETTINGS: [OwnedField, string][] = (
  [
    'location',
    'kind',
    'tier',
    'replication',
    'accessTier',
    'publicNetworkAccess',
    'allowedIpRanges',
    'httpsOnly',
    'minTlsVersion',
    'sharedKeyAccess',
    'hierarchicalNamespace',
    'sftpEnabled',
    'nfsv3Enabled',
  ] as const
).map((field) => [field, SETTING_LABELS[field]]);

/** Desired (spec) beside observed (what Azure reports), one block per setting; differences marked. */
export function DesiredObservedList({ account }: { account: StorageAccount }) {
  const differing = new Set(account.sync.differingFields);
  const reported = Object.keys(account.reported).length > 0;
  return (
    <RecordList label="Desired and observed settings">
      {COMPARED_SETTINGS.filter(
        ([key]) => account.desired[key] !== undefined || account.reported[key] !== undefined,
      ).map(([key, label]) => {
        const differs = differing.has(key);
        return (
          <Box
            component="li"
            key={key}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'minmax(10rem, 1fr) 1fr 1fr' },
              gap: { xs: 0.25, sm: 2 },
              px: 1.5,
              py: 0.75,
              border: 1,
              borderRadius: 1,
              borderColor: differs ? 'warning.main' : 'divider',
              overflowWrap: 'anywhere',
            }}
          >
            <Typography variant="body2" component="div" sx={{ m: 0, fontWeight: 600 }}>
              {label}
              {differs ? <Chip size="small" color="warning" variant="outlined" label="differs" sx={{ ml: 1 }} /> : null}
            </Typography>
            <Typography variant="body2" component="p" sx={{ m: 0 }}>
              <Box component="span" sx={{ color: 'text.secondary' }}>
                Desired:{' '}
              </Box>
              {formatSetting(key, account.desired[key])}
            </Typography>
            <Typography variant="body2" component="p" sx={{ m: 0 }}>
              <Box component="span" sx={{ color: 'text.secondary' }}>
                Azure reports:{' '}
              </Box>
              {reported ? formatSetting(key, account.reported[key]) : 'not yet reported'}
            </Typography>
          </Box>
        );
      })}
    </RecordList>
  );
}
