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
import { useEffect, useId, useState, useTransition } from 'react';
import { formatSetting } from '@/lib/platform/display';
import type { OwnedFieldChange } from '@/lib/platform/owned-settings';
import { remediateResource, type RemediationAction } from './account-client';
import { useHoldLiveUpdates } from './LiveUpdates';

/** What each remediation does, in the words of its button and of its review. */
const REMEDIATION_TEXT: Record<RemediationAction, { button: string; review: string }> = {
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
function RemediateButton({
  name,
  action,
  resourceVersion,
  onApplied,
}: {
  name: string;
  action: RemediationAction;
  resourceVersion?: string;
  /** Told what was accepted; the button itself may be gone once the page shows the result. */
  onApplied: (notice: string) => void;
}) {
  const router = useRouter();
  const titleId = useId();
  const [review, setReview] = useState<Review>({ state: 'closed' });
  useHoldLiveUpdates(review.state !== 'closed');
  const [applying, setApplying] = useState(false);
  const text = REMEDIATION_TEXT[action] ?? REMEDIATION_TEXT['restore-intent'];
  const body = { action, ...(resourceVersion ? { resourceVersion } : {}) };

  const open = async () => {
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
      onApplied(`${text.button}: accepted. The page shows the result as the platform applies it.`);
      router.refresh();
    } else {
      setReview({ state: 'failed', status: result.status, message: result.error });
    }
  };

  // The dialog closes once the page has read the account again, so that a new review starts from
  // the latest version and not from the one that was just refused.
  const [reloading, startReload] = useTransition();
  const [reloadRequested, setReloadRequested] = useState(false);
  const reload = () => {
    setReloadRequested(true);
    startReload(() => router.refresh());
  };
  useEffect(() => {
    if (!reloadRequested || reloading) return;
    setReloadRequested(false);
    setReview({ state: 'closed' });
  }, [reloadRequested, reloading]);

  return (
    <>
      <Button variant="outlined" size="small" onClick={() => void open()} disabled={review.state === 'checking'}>
        {text.button}
      </Button>
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
            <Alert
              severity="error"
              role="alert"
              action={
                // The account moved on since this page read it: the page reads it again, and with it the
                // remediations that now apply, to be reviewed afresh.
                review.status === 409 ? (
                  <Button color="inherit" size="small" onClick={reload} disabled={reloadRequested}>
                    {reloadRequested ? 'Loading…' : 'Load the latest version'}
                  </Button>
                ) : undefined
              }
            >
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
    </>
  );
}

/**
 * The remediations an account's class offers, and the notice of the last one applied. Rendered
 * whether or not any is offered, so the notice stays when the page, refreshed, no longer offers the
 * action that was just applied.
 */
export function RemediationActions({
  name,
  actions,
  resourceVersion,
}: {
  name: string;
  actions: readonly RemediationAction[];
  resourceVersion?: string;
}) {
  const [notice, setNotice] = useState<string>();
  if (actions.length === 0 && !notice) return null;
  return (
    <Box sx={{ display: 'grid', gap: 1, justifyItems: 'start' }}>
      {actions.length > 0 ? (
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          {actions.map((action) => (
            <RemediateButton
              key={action}
              name={name}
              action={action}
              {...(resourceVersion ? { resourceVersion } : {})}
              onApplied={setNotice}
            />
          ))}
        </Box>
      ) : null}
      {notice ? (
        <Alert severity="success" role="status" onClose={() => setNotice(undefined)}>
          {notice}
        </Alert>
      ) : null}
    </Box>
  );
}
