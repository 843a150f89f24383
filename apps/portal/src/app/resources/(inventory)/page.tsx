import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { Metadata } from 'next';
import { AppLink, LinkButton } from '@/components/common/LinkButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { DeletionNotice } from '@/components/resources/DeletionNotice';
import { LiveUpdates } from '@/components/resources/LiveUpdates';
import { InventorySources } from '@/components/resources/InventorySources';
import { emptyInventoryMessage } from '@/components/resources/empty-inventory';
import { inventoryHref } from '@/components/resources/inventory-href';
import { ResourceTable } from '@/components/resources/ResourceTable';
import { toResourceRow } from '@/components/resources/rows';
import { CLASSIFICATION_LABELS } from '@/lib/platform/classification';
import { accountFeed } from '@/server/live/account-feed';
import { parseInventoryQuery } from '@/server/services/inventory/inventory-query';
import { loadPlatformData } from '@/server/services/page-data';
import { platformMode, storageAccountInventory } from '@/server/services/storage-accounts';

export const metadata: Metadata = { title: 'Resources' };

/** Rows per page of the inventory; the API's default is larger, for scripts. */
const PAGE_SIZE = 50;

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function ResourcesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const raw = await searchParams;
  // Before the data is read: a change from here on reaches the page through the live stream.
  const since = accountFeed().latestId;
  const deleted = first(raw['deleted']);
  const params = new URLSearchParams();
  for (const name of ['q', 'state', 'class', 'namespace', 'sort', 'cursor']) {
    const value = first(raw[name]);
    if (value !== undefined) params.set(name, value);
  }
  // A hand-edited URL with a bad value shows the default rather than an error page.
  const query = { ...parseInventoryQuery(params, { lenient: true }), limit: PAGE_SIZE };
  const loaded = await loadPlatformData(async () => {
    const { readModel, ...sources } = await storageAccountInventory();
    return {
      page: readModel.page(query),
      sources,
      inventoryEmpty: readModel.items.length === 0,
      deletedStillListed: deleted !== undefined && readModel.items.some((account) => account.name === deleted),
    };
  });
  const now = Date.now();
  const view = {
    ...(query.q ? { q: query.q } : {}),
    ...(query.state ? { state: query.state } : {}),
    ...(query.classification ? { class: query.classification } : {}),
    ...(query.namespace ? { namespace: query.namespace } : {}),
    sort: query.sort,
  };
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
      {deleted !== undefined ? (
        // Unknown while the list cannot be read: then only the request is certain.
        <DeletionNotice name={deleted} stillListed={!loaded.ok || loaded.value.deletedStillListed} />
      ) : null}
      {loaded.ok ? <InventorySources inventory={loaded.value.sources} /> : null}
      {loaded.ok ? (
        <>
          <Box sx={{ mb: 1, minHeight: 24, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {query.state ? (
              <>
                <Chip label={`State: ${query.state}`} color="primary" variant="outlined" size="small" />
                <AppLink href={inventoryHref({ ...view, state: undefined })}>Show every state</AppLink>
              </>
            ) : null}
            {query.classification ? (
              <>
                <Chip
                  label={`Intent: ${CLASSIFICATION_LABELS[query.classification]}`}
                  color="primary"
                  variant="outlined"
                  size="small"
                />
                <AppLink href={inventoryHref({ ...view, class: undefined })}>Show every account</AppLink>
              </>
            ) : null}
            {query.namespace ? (
              <>
                <Chip label={`Namespace: ${query.namespace}`} color="primary" variant="outlined" size="small" />
                <AppLink href={inventoryHref({ ...view, namespace: undefined })}>Show every namespace</AppLink>
              </>
            ) : null}
            {/* Every change (a just-deleted account leaving the list among them) re-renders the page. */}
            <LiveUpdates since={since} />
          </Box>
          <ResourceTable
            page={{
              rows: loaded.value.page.items.map((account) => toResourceRow(account, now)),
              total: loaded.value.page.total,
              start: loaded.value.page.start,
              next: loaded.value.page.next,
              previous: loaded.value.page.previous,
              inventoryEmpty: loaded.value.inventoryEmpty,
            }}
            view={view}
            emptyMessage={
              query.namespace && !loaded.value.inventoryEmpty
                ? `No storage accounts are in namespace ${query.namespace}.`
                : query.classification && !loaded.value.inventoryEmpty
                  ? `No storage accounts are “${CLASSIFICATION_LABELS[query.classification]}”.`
                  : query.state && !loaded.value.inventoryEmpty
                    ? `No storage accounts are ${query.state.toLowerCase()}.`
                    : emptyInventoryMessage(platformMode())
            }
          />
        </>
      ) : (
        <PlatformProblem message={loaded.message} status={loaded.status} />
      )}
    </>
  );
}
