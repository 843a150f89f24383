'use client';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { formatSetting } from '@/lib/platform/display';
import type { OwnedFieldChange } from '@/lib/platform/owned-settings';
import { remediateResource, type RemediationAction } from './account-client';

/** What each remediation does, in the words of its button and of its review. */
export const REMEDIATION_TEXT: Record<RemediationAction, { button: string; review: string }> = {
  'restore-intent': {
    button: 'Restore intent',
    review:
      'The cluster object is set back to the intent recorded in the portal, and Crossplane is asked to reconcile now, which puts Azure back too.',
  },
  'accept-cloud': {
    button: 'Accept current values',
    review: 'What Azure holds now is recorded as the new intent, then applied to the cluster object.',
  },
  recreate: {
    button: 'Recreate in the cluster',
    review:
      'A new cluster object is created from the recorded intent, with crossplane.io/external-name set, so Crossplane takes over the existing Azure account instead of creating another.',
  },
  adopt: {
    button: 'Adopt (observe only)',
    review:
      'A cluster object with managementPolicies ["Observe"] is created for this Azure account: Crossplane reads it and changes nothing. What is observed now is recorded as intent.',
  },
  manage: {
    button: 'Manage fully',
    review:
      'The adopted account moves to full management: its spec becomes the recorded intent and Crossplane applies it to Azure from now on.',
  },
};

type Review =
  | { state: 'closed' }
  | { state: 'checking' }
  | { state: 'ready'; changes: OwnedFieldChange[] }
  | { state: 'failed'; status: number; message: string };

function describe(change: OwnedFieldChange): string {
  if (change.from === undefined) return `${change.label}: ${formatSetting(change.field, change.to)}`;
  return `${change.label}: ${formatSetting(change.field, change.from)} → ${formatSetting(change.field, change.to)}`;
}

/** One remediation through the review step: the server's dry run and what it changes, then apply. */
export function RemediateButton({
  name,
  action,
  resourceVersion,
}: {
  name: string;
  action: RemediationAction;
  resourceVersion?: string;
}) {
  const router = useRouter();
  const titleId = useId();
  const [review, setReview] = useState<Review>({ state: 'closed' });
  const [applying, setApplying] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const text = REMEDIATION_TEXT[action] ?? REMEDIATION_TEXT['restore-intent'];
  const body = { action, ...(resourceVersion ? { resourceVersion } : {}) };

  const open = async () => {
    setOutcome(undefined);
    setReview({ state: 'checking' });
    const result = await remediateResource(name, body, { dryRun: true });
    setReview(
      result.ok
        ? { state: 'ready', changes: result.value.changes }
        : { state: 'failed', status: result.status, message: result.error },
    );
  };

  const apply = async () => {
    setApplying(true);
    const result = await remediateResource(name, body, { dryRun: false });
    setApplying(false);
    if (result.ok) {
      setReview({ state: 'closed' });
      setOutcome({ ok: true, text: `${text.button}: accepted. The page shows the result as the platform applies it.` });
      router.refresh();
    } else {
      setReview({ state: 'failed', status: result.status, message: result.error });
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 1, justifyItems: 'start' }}>
      <Button variant="outlined" size="small" onClick={() => void open()} disabled={review.state === 'checking'}>
        {text.button}
      </Button>
      {outcome ? (
        <Alert severity={outcome.ok ? 'success' : 'error'} role="status">
          {outcome.text}
        </Alert>
      ) : null}
      <Dialog open={review.state !== 'closed'} onClose={() => setReview({ state: 'closed' })} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>
          {text.button}: {name}
        </DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {text.review}
          </Typography>
          {review.state === 'checking' ? (
            <Alert severity="info" role="status">
              The platform is checking this with a dry run…
            </Alert>
          ) : null}
          {review.state === 'failed' ? (
            <Alert severity="error" role="alert">
              {review.status === 409 ? 'Not applied: ' : ''}
              {review.message}
            </Alert>
          ) : null}
          {review.state === 'ready' ? (
            <>
              <Alert severity="success" role="status" sx={{ mb: 2 }}>
                The cluster accepted a dry run of this.
              </Alert>
              {review.changes.length > 0 ? (
                <Box component="ul" aria-label="What this changes" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 0.5 }}>
                  {review.changes.map((change) => (
                    <li key={change.field}>{describe(change)}</li>
                  ))}
                </Box>
              ) : (
                <Typography variant="body2">No setting changes; Crossplane is asked to reconcile.</Typography>
              )}
            </>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setReview({ state: 'closed' })}>Cancel</Button>
          <Button variant="contained" disabled={review.state !== 'ready' || applying} onClick={() => void apply()}>
            {applying ? 'Applying…' : 'Apply'}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
