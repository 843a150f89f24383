import Chip from '@mui/material/Chip';
import {
  CLASSIFICATION_HINTS,
  CLASSIFICATION_LABELS,
  type Classification,
  type ClassificationCode,
} from '@/lib/platform/classification';
import { SETTING_LABELS } from '@/lib/platform/setting-labels';

const COLORS: Record<ClassificationCode, 'success' | 'info' | 'warning' | 'error' | 'default'> = {
  in_sync: 'success',
  pending: 'info',
  cluster_drift: 'warning',
  drifted: 'warning',
  not_in_cluster: 'error',
  desired_only: 'error',
  cloud_only: 'warning',
  // Unknown is never green: nobody can say the account is as requested.
  observation_unavailable: 'default',
  cluster_unavailable: 'default',
};

/** The differing fields in the words the rest of the page uses. */
export function classificationFields(classification: Classification): string {
  return classification.fields.map((field) => SETTING_LABELS[field]).join(', ');
}

export function ClassificationChip({ classification }: { classification: Classification }) {
  const fields = classificationFields(classification);
  const label = CLASSIFICATION_LABELS[classification.code];
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[classification.code]}
      label={fields ? `${label}: ${fields}` : label}
      title={
        fields
          ? `${label}: ${fields}. ${CLASSIFICATION_HINTS[classification.code]}`
          : CLASSIFICATION_HINTS[classification.code]
      }
      sx={{ maxWidth: '100%' }}
      data-classification={classification.code}
    />
  );
}
