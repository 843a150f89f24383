'use client';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CHANGEABLE_TLS_VERSIONS, FIXED_FIELDS } from '@/lib/platform/account-change';
import type { ChangeableSettings } from '@/lib/platform/owned-settings';
import { formatTlsVersion } from '@/lib/platform/display';
import { SETTING_LABELS } from '@/lib/platform/setting-labels';
import { ACCESS_TIERS, ENVIRONMENTS } from '@/lib/platform/storage-rules';
import type { FieldErrors } from '@/lib/platform/types';
import { ownValue } from '@/lib/own-value';

export interface EditSettingsStepProps {
  titleId: string;
  draft: ChangeableSettings;
  set: <K extends keyof ChangeableSettings>(field: K, value: ChangeableSettings[K]) => void;
  /** The allowed IP ranges as typed, one per line (parsed into the draft's list when it is used). */
  rangesText: string;
  setRangesText: (text: string) => void;
  errors: FieldErrors;
  accessTierApplies: boolean;
  fixed: { field: string; value: string }[];
}

/** The change dialog's first step: the settings that can change in place, and those that cannot. */
export function EditSettingsStep({
  titleId,
  draft,
  set,
  rangesText,
  setRangesText,
  errors,
  accessTierApplies,
  fixed,
}: EditSettingsStepProps) {
  return (
    <Box sx={{ display: 'grid', gap: 2, pt: 1 }}>
      <Typography variant="body2" color="text.secondary">
        These settings change in place, without recreating the account or moving its data.
      </Typography>
      {accessTierApplies ? (
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
            errors['allowedIpRanges'] ?? 'IPv4 addresses or CIDR ranges, one per line; empty allows every address'
          }
        />
      ) : (
        <Typography variant="body2" color="text.secondary">
          Without public network access the account is reachable only through private endpoints, so there are no IP
          ranges to allow.
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
        control={<Switch checked={draft.httpsOnly} onChange={(event) => set('httpsOnly', event.target.checked)} />}
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
          {fixed.map(({ field, value }) => (
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
  );
}
