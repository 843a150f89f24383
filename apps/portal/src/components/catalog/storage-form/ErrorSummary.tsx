'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Link from '@mui/material/Link';
import type { FieldErrors } from '@/lib/platform/storage-request';
import { FIELD_LABELS, type StorageFormField } from '../storage-form-model';

/**
 * The problems that stop the person from going on, announced at once (role="alert"), each a
 * link that moves focus to its field; the same message also sits beside the field.
 */
export function ErrorSummary({
  problems,
  onSelect,
}: {
  problems: readonly [StorageFormField, string][];
  onSelect: (field: StorageFormField) => void;
}) {
  return (
    <Alert severity="error" role="alert">
      <AlertTitle>
        {problems.length === 1 ? 'Fix this problem to continue' : `Fix these ${problems.length} problems to continue`}
      </AlertTitle>
      <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
        {problems.map(([field, message]) => (
          <li key={field}>
            <Link
              component="button"
              type="button"
              onClick={() => onSelect(field)}
              sx={{ textAlign: 'left', verticalAlign: 'baseline' }}
            >
              {FIELD_LABELS[field]}: {message}
            </Link>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** The problems among `fields`, in their order. */
export function problemsIn(
  fields: readonly StorageFormField[],
  errorFor: (field: StorageFormField) => string | undefined,
): [StorageFormField, string][] {
  return fields.flatMap((field) => {
    const message = errorFor(field);
    return message ? [[field, message] as [StorageFormField, string]] : [];
  });
}

export type { FieldErrors };
