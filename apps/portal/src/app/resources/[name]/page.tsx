import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
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
import { getStorageAccountDetail } from '@/server/platform/storage-accounts';

type Params = { params: Promise<{ name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { name } = await params;
  return { title: decodeURIComponent(name) };
}

export default async function ResourcePage({ params }: Params) {
  const name = decodeURIComponent((await params).name);
  const loaded = await loadPlatformData(() => getStorageAccountDetail(name));
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
  const { account, events, yaml } = loaded.value;
  const deleting = account.state === 'Deleting';
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
        actions={<DeleteResourceDialog name={account.name} disabled={deleting} />}
      />
      <Stack spacing={2}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
          <SummarySection account={account} />
          <SettingsSection account={account} />
        </Box>
        <ObservedSection account={account} />
        <ConditionsSection conditions={account.conditions} />
        <EventsSection events={events} />
        <YamlSection yaml={yaml} />
      </Stack>
    </>
  );
}
