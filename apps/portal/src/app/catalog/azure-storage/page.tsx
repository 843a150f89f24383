import type { Metadata } from 'next';
import { StorageAccountForm } from '@/components/catalog/StorageAccountForm';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { requirePageAction } from '@/server/auth/page-access';
import { loadPlatformData } from '@/server/platform/page-data';
import { allowedLocations, listResourceGroups } from '@/server/platform/storage-accounts';

export const metadata: Metadata = { title: 'New Azure storage account' };

/**
 * Only roles that may create: ./layout.tsx answers the others with a 403 page before anything
 * streams. Next renders a page alongside its layouts, so the page asks again rather than rely on that.
 */
export default async function AzureStoragePage() {
  await requirePageAction('create');
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
        />
      ) : (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      )}
    </>
  );
}
