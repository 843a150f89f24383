import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import type { Metadata } from 'next';
import { LinkButton } from '@/components/common/LinkButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { AutoRefresh } from '@/components/resources/AutoRefresh';
import { ResourceTable } from '@/components/resources/ResourceTable';
import { anyUnsettled, toResourceRow } from '@/components/resources/rows';
import { loadPlatformData } from '@/server/platform/page-data';
import { listStorageAccounts } from '@/server/platform/storage-accounts';

export const metadata: Metadata = { title: 'Resources' };

export default async function ResourcesPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string | string[] }>;
}) {
  const { deleted } = await searchParams;
  const loaded = await loadPlatformData(listStorageAccounts);
  const now = Date.now();
  return (
    <>
      <PageHeader
        title="Resources"
        description="Every storage account the platform manages, and how far along it is."
        actions={
          <LinkButton href="/catalog/azure-storage" variant="contained">
            New storage account
          </LinkButton>
        }
      />
      {typeof deleted === 'string' ? (
        <Alert severity="success" sx={{ mb: 2 }}>
          Deletion of <strong>{deleted}</strong> was requested. It disappears from this list once Azure has removed it.
        </Alert>
      ) : null}
      {loaded.ok ? (
        <>
          <Box sx={{ mb: 1, minHeight: 24 }}>
            <AutoRefresh active={anyUnsettled(loaded.value)} />
          </Box>
          <ResourceTable rows={loaded.value.map((account) => toResourceRow(account, now))} />
        </>
      ) : (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      )}
    </>
  );
}
