import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { Metadata } from 'next';
import { LinkButton } from '@/components/common/LinkButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { AutoRefresh } from '@/components/resources/AutoRefresh';
import { ResourceTable } from '@/components/resources/ResourceTable';
import { anyUnsettled, toResourceRow } from '@/components/resources/rows';
import type { StorageAccount } from '@/lib/platform/types';
import { loadPlatformData } from '@/server/platform/page-data';
import { listStorageAccounts } from '@/server/platform/storage-accounts';

export const metadata: Metadata = { title: 'Applications' };

const UNLABELLED = 'Not assigned to an application';

function groupByApplication(accounts: StorageAccount[]): [string, StorageAccount[]][] {
  const groups = new Map<string, StorageAccount[]>();
  for (const account of accounts) {
    const key = account.application ?? UNLABELLED;
    groups.set(key, [...(groups.get(key) ?? []), account]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === UNLABELLED ? 1 : b === UNLABELLED ? -1 : a.localeCompare(b)));
}

export default async function ApplicationsPage() {
  const loaded = await loadPlatformData(listStorageAccounts);
  const now = Date.now();
  return (
    <>
      <PageHeader
        title="Applications"
        description="Resources grouped by the application they belong to, as recorded when they were requested."
      />
      {!loaded.ok ? (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      ) : loaded.value.length === 0 ? (
        <Card>
          <CardContent>
            <Typography variant="h2" gutterBottom>
              No applications yet
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              An application appears here as soon as a resource is requested for it.
            </Typography>
            <LinkButton href="/catalog" variant="contained">
              Request a resource
            </LinkButton>
          </CardContent>
        </Card>
      ) : (
        <Box sx={{ display: 'grid', gap: 3 }}>
          <AutoRefresh active={anyUnsettled(loaded.value)} />
          {groupByApplication(loaded.value).map(([application, accounts]) => {
            const environments = [...new Set(accounts.map((account) => account.environment).filter(Boolean))].join(
              ', ',
            );
            return (
              <Box component="section" key={application} aria-label={application}>
                <Typography variant="h2" gutterBottom>
                  {application}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {accounts.length} storage account{accounts.length === 1 ? '' : 's'}
                  {environments ? ` · environments: ${environments}` : ''}
                </Typography>
                <ResourceTable rows={accounts.map((account) => toResourceRow(account, now))} />
              </Box>
            );
          })}
        </Box>
      )}
    </>
  );
}
