'use client';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useRouter } from 'next/navigation';
import { useId, useMemo, useState } from 'react';
import {
  changeRequest,
  checkChangedSettings,
  diffSettings,
  parseAccountChange,
  type FieldChange,
} from '@/lib/platform/account-change';
import type { ChangeableSettings, FixedCombination } from '@/lib/platform/owned-settings';
import { formatSetting } from '@/lib/platform/display';
import type { FieldErrors } from '@/lib/platform/types';
import { changeResource } from './account-client';
import { EditSettingsStep } from './EditSettingsStep';
import { ReviewChangeStep, type Check } from './ReviewChangeStep';
import { useHoldLiveUpdates } from './LiveUpdates';

export interface EditAccountDialogProps {
  name: string;
  resourceVersion: string;
  /** The settings as the spec holds them now. */
  current: ChangeableSettings;
  /** Whether the account's kind takes an access tier at all. */
  accessTierApplies: boolean;
  /** The account's settings that a change keeps, which Azure's rules also look at. */
  combination: FixedCombination;
  /** Fields that cannot change in place and their current values, shown read-only with the reason. */
  fixed: { field: string; value: string }[];
  disabled?: boolean;
}

type Step = 'edit' | 'review';

const parseRanges = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((range) => range.trim())
    .filter(Boolean);

/**
 * Change the settings that can change in place: edit, review the difference with a server dry
 * run, then apply. The version the page was read at travels with the change, so a change made by
 * someone else meanwhile is a clear conflict, never overwritten.
 */
export function EditAccountDialog(props: EditAccountDialogProps) {
  const { name } = props;
  const router = useRouter();
  // The version and values the person started from, frozen while the dialog is open: a page
  // refresh in the background must not quietly move the change onto a newer version.
  const [base, setBase] = useState({ resourceVersion: props.resourceVersion, current: props.current });
  const [awaitingReload, setAwaitingReload] = useState(false);
  const { resourceVersion, current } = base;
  const titleId = useId();
  const [open, setOpen] = useState(false);
  useHoldLiveUpdates(open);
  const [step, setStep] = useState<Step>('edit');
  const [draft, setDraft] = useState<ChangeableSettings>(current);
  const [rangesText, setRangesText] = useState(current.allowedIpRanges.join('\n'));
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [applying, setApplying] = useState(false);
  const [applied, setApplied] = useState<FieldChange[]>();

  if (awaitingReload && props.resourceVersion !== resourceVersion) {
    // The reload brought the latest version: keep what the person edited, take everything else
    // from the latest values, so the other person's change is not undone by this one.
    const edited = diffSettings(current, {
      ...draft,
      allowedIpRanges: draft.publicNetworkAccess ? parseRanges(rangesText) : [],
    });
    const rebased: ChangeableSettings = { ...props.current };
    for (const { field, to } of edited) (rebased as unknown as Record<string, unknown>)[field] = to;
    setBase({ resourceVersion: props.resourceVersion, current: props.current });
    setDraft(rebased);
    setRangesText(rebased.allowedIpRanges.join('\n'));
    setAwaitingReload(false);
  }

  const next: ChangeableSettings = useMemo(
    () => ({ ...draft, allowedIpRanges: draft.publicNetworkAccess ? parseRanges(rangesText) : [] }),
    [draft, rangesText],
  );
  const changes = diffSettings(current, next);
  const request = changeRequest(resourceVersion, current, next);
  const errors: FieldErrors = useMemo(() => {
    const parsed = parseAccountChange(request);
    return {
      ...(parsed.success ? {} : parsed.fields),
      ...checkChangedSettings(next, props.combination),
    };
  }, [request, next, props.combination]);
  const valid = Object.keys(errors).length === 0;

  const set = <K extends keyof ChangeableSettings>(field: K, value: ChangeableSettings[K]) =>
    setDraft((previous) => ({ ...previous, [field]: value }));

  const start = () => {
    setBase({ resourceVersion: props.resourceVersion, current: props.current });
    setDraft(props.current);
    setRangesText(props.current.allowedIpRanges.join('\n'));
    setStep('edit');
    setCheck({ state: 'idle' });
    setApplied(undefined);
    setOpen(true);
  };

  const review = async () => {
    setStep('review');
    setCheck({ state: 'checking' });
    const result = await changeResource(name, request, { dryRun: true });
    setCheck(result.ok ? { state: 'passed' } : { state: 'failed', status: result.status, message: result.error });
  };

  const apply = async () => {
    setApplying(true);
    const result = await changeResource(name, request, { dryRun: false });
    setApplying(false);
    if (!result.ok) {
      setCheck({ state: 'failed', status: result.status, message: result.error });
      return;
    }
    setApplied(result.value.changes);
    setOpen(false);
    router.refresh();
  };

  /** After a conflict: read the account again; the draft stays, compared with the latest values. */
  const reload = () => {
    setCheck({ state: 'idle' });
    setStep('edit');
    setAwaitingReload(true);
    router.refresh();
  };

  return (
    <>
      <Button variant="outlined" startIcon={<EditOutlined />} disabled={props.disabled} onClick={start}>
        Change settings
      </Button>
      {applied ? (
        <Alert severity="success" role="status" onClose={() => setApplied(undefined)} sx={{ flexBasis: '100%' }}>
          {applied.length === 0
            ? 'Nothing needed to change.'
            : `Change applied: ${applied.map((c) => `${c.label} ${formatSetting(c.field, c.from)} → ${formatSetting(c.field, c.to)}`).join('; ')}. Crossplane now updates Azure.`}
        </Alert>
      ) : null}
      <Dialog open={open} onClose={() => !applying && setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="md">
        <DialogTitle id={titleId}>
          {step === 'edit' ? `Change settings of ${name}` : `Review the change to ${name}`}
        </DialogTitle>
        <DialogContent>
          {step === 'edit' ? (
            <EditSettingsStep
              titleId={titleId}
              draft={draft}
              set={set}
              rangesText={rangesText}
              setRangesText={setRangesText}
              errors={errors}
              accessTierApplies={props.accessTierApplies}
              fixed={props.fixed}
            />
          ) : (
            <ReviewChangeStep changes={changes} check={check} onReload={reload} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={applying}>
            Cancel
          </Button>
          {step === 'edit' ? (
            <Button variant="contained" disabled={!valid || changes.length === 0} onClick={() => void review()}>
              Review changes
            </Button>
          ) : (
            <>
              <Button onClick={() => setStep('edit')} disabled={applying}>
                Back
              </Button>
              <Button
                variant="contained"
                disabled={check.state !== 'passed' || applying || changes.length === 0}
                onClick={() => void apply()}
              >
                {applying ? 'Applying…' : 'Apply changes'}
              </Button>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
