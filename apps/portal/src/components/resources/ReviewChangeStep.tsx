'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { FieldChange } from '@/lib/platform/account-change';
import { formatSetting } from '@/lib/platform/display';

/** Where the server's dry run of the change stands. */
export type Check = { state: 'idle' | 'checking' | 'passed' } | { state: 'failed'; status: number; message: string };

function ChangeList({ changes }: { changes: FieldChange[] }) {
  return (
    <Box component="ul" aria-label="Changes to apply" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
      {changes.map((change) => (
        <li key={change.field}>
          <strong>{change.label}</strong>: {formatSetting(change.field, change.from)} →{' '}
          {formatSetting(change.field, change.to)}
        </li>
      ))}
    </Box>
  );
}

/** The change dialog's second step: the difference, and what the platform's dry run said of it. */
export function ReviewChangeStep({
  changes,
  check,
  onReload,
}: {
  changes: FieldChange[];
  check: Check;
  /** After a conflict: read the account again, keeping the edits. */
  onReload: () => void;
}) {
  const conflict = check.state === 'failed' && check.status === 409;
  return (
    <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
      {changes.length === 0 ? (
        <Typography>Nothing changes: the settings are as the account has them now.</Typography>
      ) : (
        <ChangeList changes={changes} />
      )}
      {check.state === 'checking' ? (
        <Alert severity="info" role="status">
          Checking the change with the platform (a dry run: nothing changes yet)…
        </Alert>
      ) : null}
      {check.state === 'passed' ? (
        <Alert severity="success" role="status">
          The platform accepted this change in a dry run. Nothing has changed yet.
        </Alert>
      ) : null}
      {check.state === 'failed' ? (
        <Alert
          severity="error"
          role="alert"
          action={
            conflict ? (
              <Button color="inherit" size="small" onClick={onReload}>
                Load the latest version
              </Button>
            ) : undefined
          }
        >
          <AlertTitle>{conflict ? 'Someone else changed this account' : 'The change was refused'}</AlertTitle>
          {check.message}
          {conflict ? ' Your edits are kept; they will be compared with the latest values.' : ''}
        </Alert>
      ) : null}
    </Box>
  );
}
