import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { formatSetting } from '@/lib/platform/display';
import { INTENT_ACTION_LABELS, type HistoryItem, type IntentStatus } from '@/lib/platform/intent';
import type { OwnedFieldChange } from '@/lib/platform/owned-settings';
import { formatTimestamp } from './format';
import { RecordItem, RecordList, Section } from './ResourceDetail';

const STATUS: Record<IntentStatus, { label: string; color: 'success' | 'warning' | 'error' }> = {
  applied: { label: 'Applied', color: 'success' },
  pending: { label: 'Pending', color: 'warning' },
  failed: { label: 'Failed', color: 'error' },
};

function describeChange(change: OwnedFieldChange): string {
  if (change.from === undefined) return `${change.label}: ${formatSetting(change.field, change.to)}`;
  return `${change.label}: ${formatSetting(change.field, change.from)} → ${formatSetting(change.field, change.to)}`;
}

/** The trace viewer's page of a trace: PORTAL_TRACE_URL_TEMPLATE with the id in place of `{traceId}`. */
export function traceUrl(template: string, traceId: string): string {
  return template.replaceAll('{traceId}', encodeURIComponent(traceId));
}

/**
 * Who asked for what and how it ended, from the portal's intent ledger, newest first; with a
 * trace viewer configured, each traced entry links to the trace of the request that made it.
 */
export function HistorySection({
  items,
  durable,
  traceUrlTemplate,
}: {
  items: HistoryItem[];
  durable: boolean;
  traceUrlTemplate?: string | undefined;
}) {
  return (
    <Section title="History">
      {durable ? null : (
        <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
          This portal keeps its history in memory: it starts again empty when the portal restarts.
        </Typography>
      )}
      {items.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          The portal has no record of anyone asking for this account.
        </Typography>
      ) : (
        <RecordList label="History">
          {items.map((item) => {
            const status = STATUS[item.status];
            return (
              <RecordItem
                key={item.id}
                title={
                  <>
                    {INTENT_ACTION_LABELS[item.action]} by {item.by}
                    <Chip size="small" variant="outlined" color={status.color} label={status.label} sx={{ ml: 1 }} />
                  </>
                }
                meta={formatTimestamp(item.at)}
              >
                {traceUrlTemplate !== undefined && item.traceId !== null ? (
                  <Typography variant="body2" component="p" sx={{ m: 0 }}>
                    <Link href={traceUrl(traceUrlTemplate, item.traceId)} target="_blank" rel="noopener noreferrer">
                      Trace {item.traceId.slice(0, 8)}
                    </Link>
                  </Typography>
                ) : null}
                {item.reason ? (
                  <Typography variant="body2" component="p" sx={{ m: 0 }}>
                    {item.reason}
                  </Typography>
                ) : null}
                {item.changes.length > 0 ? (
                  <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                    {item.changes.map((change) => (
                      <li key={change.field}>{describeChange(change)}</li>
                    ))}
                  </Box>
                ) : null}
              </RecordItem>
            );
          })}
        </RecordList>
      )}
    </Section>
  );
}
