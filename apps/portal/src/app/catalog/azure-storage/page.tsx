import type { Metadata } from 'next';
import { StorageAccountForm } from '@/components/catalog/StorageAccountForm';
import { AccessRefused } from '@/components/common/AccessRefused';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { pageRefusal } from '@/server/auth/page-access';
import { loadPlatformData } from '@/server/services/page-data';
import { accountScope, allowedLocations, listResourceGroups } from '@/server/services/storage-accounts';

export const metadata: Metadata = { title: 'New Azure storage account' };

/**
 * Every role may open the page (the contract lets a viewer see every page, so it answers 200); a
 * role that may not create gets the explanation instead of the form, and the API refuses with 403.
 */
export default async function AzureStoragePage() {
  const refusal = await pageRefusal('create');
  if (refusal) return <AccessRefused title="Creating storage accounts" {...refusal} />;
  const loaded = await loadPlatformData(listResourceGroups);
  return (
    <>
      <PageHeader
        title="New Azure storage account"
        description="Describe the account you need. The rules of Azure are checked as you go, and the preview shows exactly what will be submitted."
      />
      {loaded.ok ? (
        <StorageAccountForm
          resourceGroups={loaded.value.filter((group) => group.ready)}
          locations={allowedLocations()}
          scope={accountScope()}
        />
      ) : (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      )}
    </>
  );
}
