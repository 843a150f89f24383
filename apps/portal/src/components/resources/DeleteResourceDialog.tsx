'use client';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { deleteResource } from './platform-client';
import { useHoldLiveUpdates } from './LiveUpdates';

/** Deletion behind a dialog: the person must type the resource's name to confirm. */
export function DeleteResourceDialog({
  name,
  disabled = false,
  deniedReason,
}: {
  name: string;
  disabled?: boolean;
  /** Why the signed-in user may not delete this account; the button is then disabled and says so. */
  deniedReason?: string;
}) {
  const router = useRouter();
  const titleId = useId();
  const reasonId = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  useHoldLiveUpdates(open);

  const close = () => {
    if (busy) return;
    setOpen(false);
    setTyped('');
    setProblem(undefined);
  };

  const confirm = async () => {
    setBusy(true);
    setProblem(undefined);
    const result = await deleteResource(name);
    if (result.ok) {
      router.push(`/resources?deleted=${encodeURIComponent(name)}`);
      router.refresh();
      return;
    }
    setBusy(false);
    setProblem(result.error);
  };

  if (deniedReason) {
    return (
      <Box
        sx={{ display: 'flex', flexDirection: 'column', alignItems: { xs: 'flex-start', sm: 'flex-end' }, gap: 0.5 }}
      >
        <Button color="error" variant="outlined" startIcon={<DeleteOutlined />} disabled aria-describedby={reasonId}>
          Delete
        </Button>
        <Typography id={reasonId} variant="caption" color="text.secondary" sx={{ maxWidth: 360 }}>
          {deniedReason}
        </Typography>
      </Box>
    );
  }

  return (
    <>
      <Button
        color="error"
        variant="outlined"
        startIcon={<DeleteOutlined />}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        Delete
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>Delete storage account {name}?</DialogTitle>
        <DialogContent>
          <Alert severity="error" role="note" sx={{ mb: 2 }}>
            This destroys the Azure storage account <strong>{name}</strong> and all the data in it: every container,
            blob, file share, queue and table. It cannot be undone.
          </Alert>
          <DialogContentText sx={{ mb: 2 }}>
            To confirm, type <strong>{name}</strong> below.
          </DialogContentText>
          <TextField
            autoFocus
            fullWidth
            label="Name of the storage account"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
          {problem ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {problem}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button color="error" variant="contained" disabled={typed !== name || busy} onClick={() => void confirm()}>
            {busy ? 'Deleting…' : 'Delete storage account'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
