import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { CLASSIFICATION_HINTS, CLASSIFICATION_LABELS, type Classification } from '@/lib/platform/classification';
import { formatSetting } from '@/lib/platform/display';
import { OWNED_FIELDS, type OwnedSettings } from '@/lib/platform/owned-settings';
import { SETTING_LABELS } from '@/lib/platform/setting-labels';
import { classificationFields } from './ClassificationChip';
import { formatTimestamp } from './format';
import { RecordList, Section } from './ResourceDetail';

export interface IntentSectionProps {
  classification: Classification;
  intent?: OwnedSettings;
  cluster?: Partial<OwnedSettings>;
  cloud?: Partial<OwnedSettings>;
  cloudStatus: { status: 'unconfigured' | 'observed' | 'unavailable'; observedAt?: string; reason?: string };
  /** Remediation actions this person may take, rendered under the verdict. */
  actions?: ReactNode;
}

const SEVERITY = {
  in_sync: 'success',
  pending: 'info',
  cluster_drift: 'warning',
  drifted: 'warning',
  not_in_cluster: 'error',
  desired_only: 'error',
  cloud_only: 'warning',
  observation_unavailable: 'info',
  cluster_unavailable: 'info',
} as const;

function Value({ label, field, value }: { label: string; field: string; value: unknown }) {
  return (
    <Typography variant="body2" component="p" sx={{ m: 0 }}>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}:{' '}
      </Box>
      {value === undefined ? '—' : formatSetting(field, value)}
    </Typography>
  );
}

/** Where the account stands against what was asked for: the class, the differing fields, each side's values. */
export function IntentSection({ classification, intent, cluster, cloud, cloudStatus, actions }: IntentSectionProps) {
  const differing = new Set(classification.fields);
  const fields = classificationFields(classification);
  const observing = cloudStatus.status !== 'unconfigured';
  const shown = OWNED_FIELDS.filter(
    (field) => intent?.[field] !== undefined || cluster?.[field] !== undefined || cloud?.[field] !== undefined,
  );
  return (
    <Section title="Intent">
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Alert severity={SEVERITY[classification.code]} role="status" data-classification={classification.code}>
          <AlertTitle>{CLASSIFICATION_LABELS[classification.code]}</AlertTitle>
          {CLASSIFICATION_HINTS[classification.code]}
          {fields ? <Box sx={{ mt: 0.5 }}>Differs: {fields}</Box> : null}
          {cloudStatus.status === 'unavailable' && cloudStatus.reason ? (
            <Box sx={{ mt: 0.5 }}>{cloudStatus.reason}.</Box>
          ) : null}
        </Alert>
        {actions}
        <Typography variant="body2" color="text.secondary">
          Intent is what was last applied through the portal (see History).
          {observing
            ? cloudStatus.observedAt
              ? ` Azure was last read at ${formatTimestamp(cloudStatus.observedAt)}.`
              : ' Azure has not been read yet.'
            : ' The portal does not observe Azure (PORTAL_AZURE_SUBSCRIPTION_ID is not set).'}
        </Typography>
        {shown.length > 0 ? (
          <RecordList label="Intent, cluster object and Azure">
            {shown.map((field) => (
              <Box
                component="li"
                key={field}
                sx={{
                  display: 'grid',
                  gridTemplateColumns: { xs: '1fr', sm: `minmax(10rem, 1fr) repeat(${observing ? 3 : 2}, 1fr)` },
                  gap: { xs: 0.25, sm: 2 },
                  px: 1.5,
                  py: 0.75,
                  border: 1,
                  borderRadius: 1,
                  borderColor: differing.has(field) ? 'warning.main' : 'divider',
                  overflowWrap: 'anywhere',
                }}
              >
                <Typography variant="body2" component="div" sx={{ m: 0, fontWeight: 600 }}>
                  {SETTING_LABELS[field]}
                  {differing.has(field) ? (
                    <Chip size="small" color="warning" variant="outlined" label="differs" sx={{ ml: 1 }} />
                  ) : null}
                </Typography>
                <Value label="Intent" field={field} value={intent?.[field]} />
                <Value label="Cluster object" field={field} value={cluster?.[field]} />
                {observing ? <Value label="Azure" field={field} value={cloud?.[field]} /> : null}
              </Box>
            ))}
          </RecordList>
        ) : null}
      </Box>
    </Section>
  );
}
