'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import NextLink from 'next/link';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { stringify } from 'yaml';
import { buildAccountManifest } from '@/lib/platform/account-manifest';
import {
  ACCESS_TIERS,
  ACCOUNT_KINDS,
  ACCOUNT_TIERS,
  ENVIRONMENTS,
  GEO_REDUNDANT_REPLICATION,
  LOCATIONS,
  REPLICATION_TYPES,
  supportsHierarchicalNamespace,
  type FieldErrors,
} from '@/lib/platform/storage-request';
import type { ResourceGroup, StorageAccount } from '@/lib/platform/types';
import { createResource, validateResource } from '@/components/resources/platform-client';
import {
  accessTierApplies,
  applyChange,
  checkForm,
  initialFormValues,
  previewRequest,
  tierLocked,
  toRequestInput,
  type StorageFormField,
  type StorageFormValues,
} from './storage-form-model';

type Outcome =
  | { kind: 'created'; account: StorageAccount }
  | { kind: 'validated'; account: StorageAccount }
  | { kind: 'failed'; message: string };

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Box>
  );
}

export function StorageAccountForm({ resourceGroups }: { resourceGroups: ResourceGroup[] }) {
  const [values, setValues] = useState<StorageFormValues>(() => initialFormValues(resourceGroups));
  const [touched, setTouched] = useState<ReadonlySet<StorageFormField>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'create' | 'validate' | undefined>();
  const [outcome, setOutcome] = useState<Outcome>();

  const check = useMemo(() => checkForm(values), [values]);
  const manifestYaml = useMemo(() => stringify(buildAccountManifest(previewRequest(values))), [values]);

  const errorFor = (field: StorageFormField): string | undefined => {
    const server = serverErrors[field];
    if (server) return server;
    if (check.valid || !(attempted || touched.has(field))) return undefined;
    return check.fields[field];
  };

  const change = <F extends StorageFormField>(field: F, value: StorageFormValues[F]) => {
    setValues((current) => applyChange(current, field, value, resourceGroups));
    setServerErrors(({ [field]: _dropped, ...rest }) => rest);
    setOutcome(undefined);
  };
  const touch = (field: StorageFormField) => setTouched((current) => new Set(current).add(field));

  const textProps = (field: 'name' | 'application' | 'allowedIpRanges', helper: string) => {
    const error = errorFor(field);
    return {
      value: values[field],
      onChange: (event: { target: { value: string } }) => change(field, event.target.value),
      onBlur: () => touch(field),
      error: Boolean(error),
      helperText: error ?? helper,
      fullWidth: true,
    };
  };

  const selectProps = <F extends StorageFormField>(field: F, helper?: string) => {
    const error = errorFor(field);
    return {
      select: true,
      fullWidth: true,
      value: values[field],
      onChange: (event: { target: { value: string } }) => change(field, event.target.value as StorageFormValues[F]),
      error: Boolean(error),
      helperText: error ?? helper,
    };
  };

  const toggle = (
    field:
      | 'publicNetworkAccess'
      | 'hierarchicalNamespace'
      | 'sftpEnabled'
      | 'nfsv3Enabled'
      | 'httpsOnly'
      | 'sharedKeyAccess',
    label: string,
    helper: string,
    disabled = false,
  ) => {
    const error = errorFor(field);
    const helperId = `${field}-helper`;
    return (
      <Box>
        <FormControlLabel
          control={
            <Switch
              checked={values[field]}
              onChange={(event) => change(field, event.target.checked)}
              disabled={disabled}
              slotProps={{ input: { 'aria-describedby': helperId } }}
            />
          }
          label={label}
        />
        <FormHelperText id={helperId} error={Boolean(error)} sx={{ mt: 0 }}>
          {error ?? helper}
        </FormHelperText>
      </Box>
    );
  };

  const submit = async (mode: 'create' | 'validate') => {
    setAttempted(true);
    setOutcome(undefined);
    if (!check.valid) {
      setOutcome({ kind: 'failed', message: 'Some fields need attention. Each problem is shown beside its field.' });
      return;
    }
    setBusy(mode);
    const input = toRequestInput(values);
    const result = mode === 'create' ? await createResource(input) : await validateResource(input);
    setBusy(undefined);
    if (result.ok) {
      setServerErrors({});
      setOutcome({ kind: mode === 'create' ? 'created' : 'validated', account: result.value.item });
      return;
    }
    const fields = { ...result.fields };
    if (result.status === 409 && !fields.name) fields.name = result.error;
    setServerErrors(fields);
    setOutcome({ kind: 'failed', message: result.error });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit('create');
  };

  const premiumOnly = tierLocked(values.accountKind);
  const hnsAllowed = supportsHierarchicalNamespace(values.accountKind, values.accountTier);
  const groupProblem = resourceGroups.length === 0;

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
        alignItems: 'start',
      }}
    >
      <Paper
        component="form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Storage account request"
        sx={{ p: { xs: 2, sm: 3 } }}
      >
        <Stack spacing={4}>
          <Section title="Basics">
            <TextField
              label="Account name"
              placeholder="Leave empty to generate one"
              {...textProps(
                'name',
                '3-24 lower-case letters and digits, unique across Azure. Leave empty and the platform generates one.',
              )}
              slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false, maxLength: 24 } }}
            />
            <TextField
              label="Application"
              required
              {...textProps(
                'application',
                'The application this account belongs to, e.g. webshop. Recorded as a label.',
              )}
            />
            <TextField label="Environment" {...selectProps('environment', 'Recorded as a label.')}>
              {ENVIRONMENTS.map((environment) => (
                <MenuItem key={environment} value={environment}>
                  {environment}
                </MenuItem>
              ))}
            </TextField>
          </Section>

          <Section title="Placement">
            {groupProblem ? (
              <Alert severity="warning">
                No approved resource group is ready. Ask the platform team to provide one.
              </Alert>
            ) : null}
            <TextField
              label="Resource group"
              {...selectProps('resourceGroup', 'Approved resource groups that are ready.')}
            >
              {resourceGroups.map((group) => (
                <MenuItem key={group.name} value={group.name} disabled={!group.ready}>
                  {group.name}
                  {group.location ? ` (${group.location})` : ''}
                  {group.ready ? '' : ' — not ready'}
                </MenuItem>
              ))}
            </TextField>
            <TextField label="Location" {...selectProps('location', 'Azure region of the account.')}>
              {LOCATIONS.map((location) => (
                <MenuItem key={location} value={location}>
                  {location}
                </MenuItem>
              ))}
            </TextField>
          </Section>

          <Section title="Performance and redundancy">
            <TextField label="Account kind" {...selectProps('accountKind', 'StorageV2 suits almost everything.')}>
              {ACCOUNT_KINDS.map((kind) => (
                <MenuItem key={kind} value={kind}>
                  {kind}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Performance tier"
              {...selectProps(
                'accountTier',
                premiumOnly
                  ? `${values.accountKind} accounts exist only on the Premium tier.`
                  : 'Premium uses SSDs and supports LRS or ZRS only.',
              )}
              disabled={premiumOnly}
            >
              {ACCOUNT_TIERS.map((tier) => (
                <MenuItem key={tier} value={tier}>
                  {tier}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Replication"
              {...selectProps(
                'replicationType',
                values.accountTier === 'Premium'
                  ? 'Premium accounts cannot replicate to another region.'
                  : 'GRS and GZRS copy data to the paired region.',
              )}
            >
              {REPLICATION_TYPES.map((replication) => (
                <MenuItem
                  key={replication}
                  value={replication}
                  disabled={values.accountTier === 'Premium' && GEO_REDUNDANT_REPLICATION.includes(replication)}
                >
                  {replication}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Access tier"
              {...selectProps(
                'accessTier',
                accessTierApplies(values.accountKind)
                  ? 'Hot for frequent access, Cool for infrequent.'
                  : `${values.accountKind} accounts take no access tier.`,
              )}
              disabled={!accessTierApplies(values.accountKind)}
            >
              <MenuItem value="" disabled>
                None
              </MenuItem>
              {ACCESS_TIERS.map((tier) => (
                <MenuItem key={tier} value={tier}>
                  {tier}
                </MenuItem>
              ))}
            </TextField>
          </Section>

          <Section title="Network and security">
            {toggle(
              'publicNetworkAccess',
              'Public network access',
              'Off: reachable only through private endpoints. On: reachable from the internet, limited to the ranges below if you list any.',
            )}
            <TextField
              label="Allowed IP ranges"
              multiline
              minRows={2}
              disabled={!values.publicNetworkAccess}
              placeholder="203.0.113.0/24, 198.51.100.7"
              {...textProps(
                'allowedIpRanges',
                'IPv4 addresses or CIDR ranges (/8 to /30), separated by commas or new lines.',
              )}
            />
            {toggle('httpsOnly', 'HTTPS only', 'Refuse unencrypted HTTP. Turn off only for NFSv3.')}
            {toggle(
              'sharedKeyAccess',
              'Shared key access',
              'Allow account-key and SAS authorization besides Microsoft Entra ID.',
            )}
            <Box
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}
              aria-label="Enforced security settings"
              role="group"
            >
              {[
                'TLS 1.2 minimum',
                'No public containers',
                'Infrastructure encryption',
                'No cross-tenant replication',
              ].map((label) => (
                <Chip key={label} label={label} size="small" variant="outlined" color="success" />
              ))}
            </Box>
          </Section>

          <Section title="Data Lake and protocols">
            {toggle(
              'hierarchicalNamespace',
              'Hierarchical namespace (Data Lake Storage)',
              hnsAllowed
                ? 'Directories and POSIX permissions; needed for SFTP and NFSv3.'
                : 'Needs a Standard StorageV2 or a Premium BlockBlobStorage account.',
              !hnsAllowed,
            )}
            {toggle('sftpEnabled', 'SFTP', 'Requires hierarchical namespace.', !values.hierarchicalNamespace)}
            {toggle(
              'nfsv3Enabled',
              'NFSv3',
              'Requires hierarchical namespace; turns HTTPS only off.',
              !values.hierarchicalNamespace,
            )}
          </Section>

          {outcome?.kind === 'failed' ? (
            <Alert severity="error" role="alert">
              {outcome.message}
            </Alert>
          ) : null}
          {outcome?.kind === 'validated' ? (
            <Alert severity="info" role="status">
              <AlertTitle>Validation passed</AlertTitle>
              The platform would accept this request. Nothing was created.
            </Alert>
          ) : null}
          {outcome?.kind === 'created' ? (
            <Alert severity="success" role="status">
              <AlertTitle>Storage account requested</AlertTitle>
              The platform is creating <strong>{outcome.account.name}</strong>.{' '}
              <Link component={NextLink} href={`/resources/${encodeURIComponent(outcome.account.name)}`}>
                Open {outcome.account.name}
              </Link>
            </Alert>
          ) : null}

          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            <Button variant="outlined" disabled={busy !== undefined} onClick={() => void submit('validate')}>
              {busy === 'validate' ? 'Validating…' : 'Validate'}
            </Button>
            <Button type="submit" variant="contained" disabled={busy !== undefined}>
              {busy === 'create' ? 'Creating…' : 'Create storage account'}
            </Button>
          </Box>
        </Stack>
      </Paper>

      <Paper
        component="aside"
        aria-labelledby="manifest-preview-title"
        sx={{ p: 2, position: { lg: 'sticky' }, top: { lg: 88 } }}
      >
        <Typography variant="h2" id="manifest-preview-title" gutterBottom>
          Manifest preview
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          What the portal will submit to the platform. The server adds who asked and the request id.
        </Typography>
        <Box
          component="pre"
          tabIndex={0}
          aria-label="Manifest preview"
          data-testid="manifest-preview"
          sx={{
            m: 0,
            p: 2,
            overflow: 'auto',
            maxHeight: { lg: '70vh' },
            bgcolor: 'action.hover',
            borderRadius: 1,
            fontSize: 13,
          }}
        >
          {manifestYaml}
        </Box>
      </Paper>
    </Box>
  );
}
