'use client';
import SyncOutlined from '@mui/icons-material/SyncOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { resyncResource } from './account-client';
import { formatTimestamp } from './format';

/** Asks Crossplane to reconcile the account now, then re-reads the page to show what it did. */
export function ResyncButton({ name, disabled = false }: { name: string; disabled?: boolean }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();

  const resync = async () => {
    setBusy(true);
    setOutcome(undefined);
    const result = await resyncResource(name);
    setBusy(false);
    if (result.ok) {
      const { resyncRequestedAt, resyncRequestedBy } = result.value.item.sync;
      setOutcome({
        ok: true,
        text: `Resync requested at ${formatTimestamp(resyncRequestedAt)}${resyncRequestedBy ? ` by ${resyncRequestedBy}` : ''}. Crossplane reconciles the account now.`,
      });
      router.refresh();
    } else {
      setOutcome({ ok: false, text: result.error });
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 1, justifyItems: 'start' }}>
      <Button
        variant="outlined"
        size="small"
        startIcon={<SyncOutlined />}
        disabled={disabled || busy}
        onClick={() => void resync()}
      >
        {busy ? 'Requesting resync…' : 'Resync'}
      </Button>
      {outcome ? (
        <Alert severity={outcome.ok ? 'success' : 'error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </Alert>
      ) : null}
    </Box>
  );
}
