'use client';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRouter } from 'next/navigation';
import { useId, useMemo, useState } from 'react';
import {
  CHANGEABLE_TLS_VERSIONS,
  changeRequest,
  checkChangedSettings,
  diffSettings,
  FIXED_FIELDS,
  parseAccountChange,
  type ChangeableSettings,
  type FieldChange,
  type FixedCombination,
} from '@/lib/platform/account-change';
import { formatSetting, formatTlsVersion } from '@/lib/platform/display';
import { SETTING_LABELS } from '@/lib/platform/setting-labels';
import { ACCESS_TIERS, ENVIRONMENTS } from '@/lib/platform/storage-rules';
import type { FieldErrors } from '@/lib/platform/types';
import { changeResource } from './account-client';
import { ownValue } from '@/lib/own-value';

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
type Check = { state: 'idle' | 'checking' | 'passed' } | { state: 'failed'; status: number; message: string };

const parseRanges = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((range) => range.trim())
    .filter(Boolean);

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

  const conflict = check.state === 'failed' && check.status === 409;

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
            <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
              <Typography variant="body2" color="text.secondary">
                These settings change in place, without recreating the account or moving its data.
              </Typography>
              {props.accessTierApplies ? (
                <TextField
                  select
                  label={SETTING_LABELS.accessTier}
                  value={draft.accessTier ?? ''}
                  onChange={(event) => set('accessTier', event.target.value)}
                  error={Boolean(errors['accessTier'])}
                  helperText={errors['accessTier'] ?? 'Cool costs less to store and more to read'}
                >
                  {ACCESS_TIERS.map((tier) => (
                    <MenuItem key={tier} value={tier}>
                      {tier}
                    </MenuItem>
                  ))}
                </TextField>
              ) : null}
              <FormControlLabel
                control={
                  <Switch
                    checked={draft.publicNetworkAccess}
                    onChange={(event) => set('publicNetworkAccess', event.target.checked)}
                  />
                }
                label={SETTING_LABELS.publicNetworkAccess}
              />
              {draft.publicNetworkAccess ? (
                <TextField
                  label={SETTING_LABELS.allowedIpRanges}
                  multiline
                  minRows={2}
                  value={rangesText}
                  onChange={(event) => setRangesText(event.target.value)}
                  error={Boolean(errors['allowedIpRanges'])}
                  helperText={
                    errors['allowedIpRanges'] ??
                    'IPv4 addresses or CIDR ranges, one per line; empty allows every address'
                  }
                />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  Without public network access the account is reachable only through private endpoints, so there are no
                  IP ranges to allow.
                </Typography>
              )}
              <TextField
                select
                label={SETTING_LABELS.minTlsVersion}
                value={draft.minTlsVersion}
                onChange={(event) => set('minTlsVersion', event.target.value)}
                error={Boolean(errors['minTlsVersion'])}
                helperText={errors['minTlsVersion'] ?? 'The platform never allows anything older than TLS 1.2'}
              >
                {CHANGEABLE_TLS_VERSIONS.map((version) => (
                  <MenuItem key={version} value={version}>
                    {formatTlsVersion(version)}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={
                  <Switch checked={draft.httpsOnly} onChange={(event) => set('httpsOnly', event.target.checked)} />
                }
                label={SETTING_LABELS.httpsOnly}
              />
              {errors['httpsOnly'] ? (
                <Alert severity="error" role="alert">
                  {errors['httpsOnly']}
                </Alert>
              ) : null}
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
                <TextField
                  label={SETTING_LABELS.application}
                  value={draft.application ?? ''}
                  onChange={(event) => set('application', event.target.value)}
                  error={Boolean(errors['application'])}
                  helperText={errors['application'] ?? 'Owner of the account: its application label and tag'}
                />
                <TextField
                  select
                  label={SETTING_LABELS.environment}
                  value={draft.environment ?? ''}
                  onChange={(event) => set('environment', event.target.value)}
                  error={Boolean(errors['environment'])}
                  helperText={errors['environment'] ?? ' '}
                >
                  {ENVIRONMENTS.map((environment) => (
                    <MenuItem key={environment} value={environment}>
                      {environment}
                    </MenuItem>
                  ))}
                </TextField>
              </Box>
              <Box component="section" aria-labelledby={`${titleId}-fixed`}>
                <Typography variant="h3" id={`${titleId}-fixed`} gutterBottom>
                  Cannot be changed in place
                </Typography>
                <Box component="ul" aria-label="Settings that cannot be changed in place" sx={{ m: 0, pl: 2.5 }}>
                  {props.fixed.map(({ field, value }) => (
                    <Typography component="li" variant="body2" key={field} sx={{ mb: 0.5 }}>
                      <strong>{ownValue(FIXED_FIELDS, field)?.label ?? field}</strong>: {value}.{' '}
                      <Box component="span" sx={{ color: 'text.secondary' }}>
                        {ownValue(FIXED_FIELDS, field)?.reason}.
                      </Box>
                    </Typography>
                  ))}
                </Box>
              </Box>
            </Box>
          ) : (
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
                      <Button color="inherit" size="small" onClick={reload}>
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
