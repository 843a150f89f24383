import ArrowBack from '@mui/icons-material/ArrowBack';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { LinkButton } from '@/components/common/LinkButton';
import { LoadingState } from '@/components/common/LoadingState';
import { RefreshButton } from '@/components/common/RefreshButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { DeleteResourceDialog } from '@/components/resources/DeleteResourceDialog';
import { EditAccountDialog } from '@/components/resources/EditAccountDialog';
import { HistorySection } from '@/components/resources/HistorySection';
import { LiveUpdates } from '@/components/resources/LiveUpdates';
import { IntentSection } from '@/components/resources/IntentSection';
import { RemediationActions } from '@/components/resources/RemediateDialog';
import { settingsInEffect } from '@/lib/platform/owned-settings';
import { offeredRemediations } from '@/lib/platform/remediations';
import {
  ConditionsSection,
  EventsSection,
  ObservedSection,
  SettingsSection,
  SummarySection,
  YamlSection,
} from '@/components/resources/ResourceDetail';
import { StateChip } from '@/components/resources/StateChip';
import { SyncSection } from '@/components/resources/SyncSection';
import { azurePortalUrl, formatAccountKind, formatReplication, yesNo } from '@/lib/platform/display';
import { ACCESS_TIER_KINDS, type AccountKind } from '@/lib/platform/storage-rules';
import type { StorageAccount } from '@/lib/platform/types';
import { currentSettings, fixedCombination } from '@/server/model/account-change-plan';
import { decide } from '@/lib/auth/permissions';
import { signedInPrincipal } from '@/server/auth/current-principal';
import { accountFeed } from '@/server/live/account-feed';
import { intentComparison } from '@/server/services/inventory/inventory';
import { accountHistory, intentIsDurable } from '@/server/services/record-intent';
import { loadConfig } from '@/server/runtime/config';
import { loadPlatformData } from '@/server/services/page-data';
import { getStorageAccount, getStorageAccountActivity } from '@/server/services/storage-accounts';

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

/** The account against intent, cluster object and Azure, field by field. */
async function ResourceIntent({ account }: { account: StorageAccount }) {
  if (!account.classification) return null;
  const classification = account.classification;
  const loaded = await loadPlatformData(() => intentComparison(account));
  if (!loaded.ok) return <PlatformProblem message={loaded.message} status={loaded.status} />;
  const offered = offeredRemediations(account, await signedInPrincipal(), loaded.value.intent !== undefined);
  const actions = (
    <RemediationActions
      name={account.name}
      actions={offered}
      {...(account.resourceVersion ? { resourceVersion: account.resourceVersion } : {})}
    />
  );
  return <IntentSection classification={classification} {...loaded.value} actions={actions} />;
}

/** The portal's own record of who asked for what, from the intent ledger. */
async function ResourceHistory({ name }: { name: string }) {
  const loaded = await loadPlatformData(() => accountHistory(name));
  if (!loaded.ok) return <PlatformProblem message={loaded.message} status={loaded.status} />;
  return (
    <HistorySection items={loaded.value} durable={intentIsDurable()} traceUrlTemplate={loadConfig().traceUrlTemplate} />
  );
}

const backLink = (
  <LinkButton href="/resources" size="small" startIcon={<ArrowBack />} sx={{ mb: 1 }}>
    Back to resources
  </LinkButton>
);

/** The settings an existing account keeps for life, with their current values, for the edit dialog. */
function fixedSettings(account: StorageAccount): { field: string; value: string }[] {
  const { desired } = account;
  const settings = settingsInEffect(desired, account.reported);
  return [
    { field: 'name', value: account.name },
    { field: 'resourceGroup', value: desired.resourceGroup ?? '—' },
    { field: 'location', value: desired.location ?? '—' },
    { field: 'accountKind', value: formatAccountKind(desired.kind) },
    { field: 'accountTier', value: desired.tier ?? '—' },
    { field: 'replicationType', value: formatReplication(desired.replication) },
    { field: 'hierarchicalNamespace', value: yesNo(settings.hierarchicalNamespace) },
    { field: 'sftpEnabled', value: yesNo(settings.sftpEnabled) },
    { field: 'nfsv3Enabled', value: yesNo(settings.nfsv3Enabled) },
    { field: 'sharedKeyAccess', value: yesNo(settings.sharedKeyAccess) },
  ];
}

// Deliberately no loading.tsx here: the account is read before anything streams, so a missing
// resource answers with a real HTTP 404; the slower parts have their own loading state below.
export default async function ResourcePage({ params }: Params) {
  const name = decodeURIComponent((await params).name);
  const since = accountFeed().latestId;
  const loaded = await loadPlatformData(() => getStorageAccount(name));
  // A malformed name cannot exist, so it is "not found" too.
  if (!loaded.ok && (loaded.status === 404 || loaded.status === 400)) notFound();
  if (!loaded.ok) {
    return (
      <>
        {backLink}
        <PageHeader title={name} />
        <PlatformProblem message={loaded.message} status={loaded.status} />
      </>
    );
  }
  const account = loaded.value;
  // Without a cluster object (only intent, or only Azure) there is nothing to change, delete or resync.
  const inCluster = account.source === undefined || account.source === 'cluster';
  const deleting = account.state === 'Deleting';
  // The server refuses a delete the user may not make; the page says why before anyone tries.
  const deletion = decide(await signedInPrincipal(), 'delete', account);
  return (
    <>
      {backLink}
      <PageHeader
        title={account.name}
        description={
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <span>Azure storage account</span>
            <StateChip state={account.state} />
            {account.stateDetail ? <span>{account.stateDetail}</span> : null}
            <LiveUpdates since={since} account={account.name} />
            <RefreshButton />
          </Box>
        }
        actions={
          <>
            <Button
              variant="text"
              href={azurePortalUrl(account)}
              target="_blank"
              rel="noopener noreferrer"
              endIcon={<OpenInNew />}
            >
              Open in the Azure portal
            </Button>
            {account.resourceVersion ? (
              <EditAccountDialog
                name={account.name}
                resourceVersion={account.resourceVersion}
                current={currentSettings(account)}
                accessTierApplies={ACCESS_TIER_KINDS.includes(account.desired.kind as AccountKind)}
                combination={fixedCombination(account)}
                fixed={fixedSettings(account)}
                disabled={deleting}
              />
            ) : null}
            {inCluster ? (
              <DeleteResourceDialog
                name={account.name}
                disabled={deleting}
                deniedReason={deletion.allowed ? undefined : deletion.reason}
              />
            ) : null}
          </>
        }
      />
      <Stack spacing={2}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
          <SummarySection account={account} />
          <SettingsSection account={account} />
        </Box>
        <Suspense fallback={<LoadingState label="Loading intent" />}>
          <ResourceIntent account={account} />
        </Suspense>
        {inCluster ? <SyncSection account={account} /> : null}
        <ObservedSection account={account} />
        {inCluster ? <ConditionsSection conditions={account.conditions} /> : null}
        <Suspense fallback={<LoadingState label="Loading history" />}>
          <ResourceHistory name={account.name} />
        </Suspense>
        {inCluster ? (
          <Suspense fallback={<LoadingState label="Loading events and YAML" />}>
            <ResourceActivity name={account.name} />
          </Suspense>
        ) : null}
      </Stack>
    </>
  );
}
