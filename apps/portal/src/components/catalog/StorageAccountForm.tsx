'use client';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import NextLink from 'next/link';
import { useMemo, useState, type FormEvent } from 'react';
import type { Location } from '@/lib/platform/storage-rules';
import type { ResourceGroup, StorageAccount } from '@/lib/platform/types';
import { createResource, validateResource } from '@/components/resources/platform-client';
import { previewRequest, toRequestInput } from './storage-form-model';
import { BasicsSection } from './storage-form/BasicsSection';
import { DataLakeSection } from './storage-form/DataLakeSection';
import { ManifestPreview } from './storage-form/ManifestPreview';
import { NetworkSection } from './storage-form/NetworkSection';
import { PerformanceSection } from './storage-form/PerformanceSection';
import { PlacementSection } from './storage-form/PlacementSection';
import { useStorageForm } from './storage-form/use-storage-form';

type Outcome =
  | { kind: 'created'; account: StorageAccount }
  | { kind: 'validated'; account: StorageAccount }
  | { kind: 'failed'; message: string };

/** The storage account workflow: the sections of the request beside a live manifest preview. */
export function StorageAccountForm({
  resourceGroups,
  locations,
}: {
  resourceGroups: ResourceGroup[];
  /** The locations platform policy allows (PORTAL_ALLOWED_LOCATIONS). */
  locations: readonly Location[];
}) {
  const [busy, setBusy] = useState<'create' | 'validate' | undefined>();
  const [outcome, setOutcome] = useState<Outcome>();
  const form = useStorageForm({ resourceGroups, locations }, () => setOutcome(undefined));
  const preview = useMemo(() => previewRequest(form.values), [form.values]);

  const submit = async (mode: 'create' | 'validate') => {
    form.markAttempted();
    setOutcome(undefined);
    if (!form.check.valid) {
      setOutcome({ kind: 'failed', message: 'Some fields need attention. Each problem is shown beside its field.' });
      return;
    }
    setBusy(mode);
    const input = toRequestInput(form.values);
    const result = mode === 'create' ? await createResource(input) : await validateResource(input);
    setBusy(undefined);
    if (result.ok) {
      form.setServerErrors({});
      setOutcome({ kind: mode === 'create' ? 'created' : 'validated', account: result.value.item });
      return;
    }
    const fields = { ...result.fields };
    if (result.status === 409 && !fields.name) fields.name = result.error;
    form.setServerErrors(fields);
    setOutcome({ kind: 'failed', message: result.error });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit('create');
  };

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
          <BasicsSection form={form} />
          <PlacementSection form={form} resourceGroups={resourceGroups} locations={locations} />
          <PerformanceSection form={form} />
          <NetworkSection form={form} />
          <DataLakeSection form={form} />

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

      <ManifestPreview request={preview} />
    </Box>
  );
}
