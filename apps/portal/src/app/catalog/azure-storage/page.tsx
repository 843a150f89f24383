import Alert from '@mui/material/Alert';
import type { Metadata } from 'next';
import { StorageAccountForm } from '@/components/catalog/StorageAccountForm';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { decide } from '@/lib/auth/permissions';
import { signedInPrincipal } from '@/server/auth/current-principal';
import { loadPlatformData } from '@/server/platform/page-data';
import { allowedLocations, listResourceGroups } from '@/server/platform/storage-accounts';

export const metadata: Metadata = { title: 'New Azure storage account' };

export default async function AzureStoragePage() {
  const creation = decide(await signedInPrincipal(), 'create');
  const loaded = await loadPlatformData(listResourceGroups);
  return (
    <>
      <PageHeader
        title="New Azure storage account"
        description="Describe the account you need. The rules of Azure are checked as you go, and the preview shows exactly what will be submitted."
      />
      {!creation.allowed ? (
        <Alert severity="info" role="note" data-testid="create-not-allowed">
          {creation.reason}. Ask the platform team for access.
        </Alert>
      ) : loaded.ok ? (
        <StorageAccountForm
          resourceGroups={loaded.value.filter((group) => group.ready)}
          locations={allowedLocations()}
        />
      ) : (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      )}
    </>
  );
}
