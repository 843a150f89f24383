import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { LoadingState } from '@/components/common/LoadingState';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { AutoRefresh } from '@/components/resources/AutoRefresh';
import { DeleteResourceDialog } from '@/components/resources/DeleteResourceDialog';
import {
  ConditionsSection,
  EventsSection,
  ObservedSection,
  SettingsSection,
  SummarySection,
  YamlSection,
} from '@/components/resources/ResourceDetail';
import { StateChip } from '@/components/resources/StateChip';
import { UNSETTLED_STATES } from '@/lib/platform/types';
import { loadPlatformData } from '@/server/platform/page-data';
import { getStorageAccount, getStorageAccountActivity } from '@/server/platform/storage-accounts';

type Params = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { name } = await params;
  return { title: decodeURIComponent(name) };
}

/** Events and YAML stream in after the account itself. */
async function ResourceActivity({ name }: { name: string }) {
  const loaded = await loadPlatformData(() => getStorageAccountActivity(name));
  if (!loaded.ok) return <PlatformProblem message={loaded.message} status={loaded.status} />;
  return (
    <>
      <EventsSection events={loaded.value.events} />
      <YamlSection yaml={loaded.value.yaml} />
    </>
  );
}

// Deliberately no loading.tsx here: the account is read before anything streams, so a missing
// resource answers with a real HTTP 404; the slower parts have their own loading state below.
export default async function ResourcePage({ params }: Params) {
  const name = decodeURIComponent((await params).name);
  const loaded = await loadPlatformData(() => getStorageAccount(name));
  // A malformed name cannot exist, so it is "not found" too.
  if (!loaded.ok && (loaded.status === 404 || loaded.status === 400)) notFound();
  if (!loaded.ok) {
    return (
      <>
        <PageHeader title={name} />
        <PlatformProblem message={loaded.message} status={loaded.status} />
      </>
    );
  }
  const account = loaded.value;
  return (
    <>
      <PageHeader
        title={account.name}
        description={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <span>Azure storage account</span>
            <StateChip state={account.state} />
            {account.stateDetail ? <span>{account.stateDetail}</span> : null}
            <AutoRefresh active={UNSETTLED_STATES.includes(account.state)} />
          </Box>
        }
        actions={<DeleteResourceDialog name={account.name} disabled={account.state === 'Deleting'} />}
      />
      <Stack spacing={2}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
          <SummarySection account={account} />
          <SettingsSection account={account} />
        </Box>
        <ObservedSection account={account} />
        <ConditionsSection conditions={account.conditions} />
        <Suspense fallback={<LoadingState label="Loading events and YAML" />}>
          <ResourceActivity name={account.name} />
        </Suspense>
      </Stack>
    </>
  );
}
