import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { Metadata } from 'next';
import { AppLink, LinkButton } from '@/components/common/LinkButton';
import { PageHeader } from '@/components/common/PageHeader';
import { PlatformProblem } from '@/components/common/PlatformProblem';
import { AutoRefresh } from '@/components/resources/AutoRefresh';
import { DeletionNotice } from '@/components/resources/DeletionNotice';
import { InventorySources } from '@/components/resources/InventorySources';
import { emptyInventoryMessage } from '@/components/resources/empty-inventory';
import { ResourceTable } from '@/components/resources/ResourceTable';
import { anyUnsettled, toResourceRow } from '@/components/resources/rows';
import { CLASSIFICATION_CODES, CLASSIFICATION_LABELS } from '@/lib/platform/classification';
import { ACCOUNT_STATES } from '@/lib/platform/types';
import { loadPlatformData } from '@/server/platform/page-data';
import { platformMode, storageAccountInventory } from '@/server/platform/storage-accounts';

export const metadata: Metadata = { title: 'Resources' };

export default async function ResourcesPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string | string[]; state?: string | string[]; class?: string | string[] }>;
}) {
  const { deleted, state, class: classParam } = await searchParams;
  // Only a known state or class filters; anything else shows everything rather than an empty page.
  const stateFilter = ACCOUNT_STATES.find((known) => known === state);
  const classFilter = CLASSIFICATION_CODES.find((known) => known === classParam);
  const inventory = await loadPlatformData(storageAccountInventory);
  const loaded = inventory.ok ? { ok: true as const, value: inventory.value.items } : inventory;
  const now = Date.now();
  const deletedStillListed = loaded.ok && loaded.value.some((account) => account.name === deleted);
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
        // Unknown while the list cannot be read: then only the request is certain.
        <DeletionNotice name={deleted} stillListed={!loaded.ok || deletedStillListed} />
      ) : null}
      {inventory.ok ? <InventorySources inventory={inventory.value} /> : null}
      {loaded.ok ? (
        <>
          <Box sx={{ mb: 1, minHeight: 24, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            {stateFilter ? (
              <>
                <Chip label={`State: ${stateFilter}`} color="primary" variant="outlined" size="small" />
                <AppLink href="/resources">Show every state</AppLink>
              </>
            ) : null}
            {classFilter ? (
              <>
                <Chip
                  label={`Intent: ${CLASSIFICATION_LABELS[classFilter]}`}
                  color="primary"
                  variant="outlined"
                  size="small"
                />
                <AppLink href="/resources">Show every account</AppLink>
              </>
            ) : null}
            {/* Keep refreshing until a just-deleted account has left the list, whatever state it reports. */}
            <AutoRefresh active={anyUnsettled(loaded.value) || deletedStillListed} />
          </Box>
          <ResourceTable
            rows={loaded.value
              .filter((account) => !stateFilter || account.state === stateFilter)
              .filter((account) => !classFilter || account.classification?.code === classFilter)
              .map((account) => toResourceRow(account, now))}
            emptyMessage={
              classFilter && loaded.value.length > 0
                ? `No storage accounts are “${CLASSIFICATION_LABELS[classFilter]}”.`
                : stateFilter && loaded.value.length > 0
                  ? `No storage accounts are ${stateFilter.toLowerCase()}.`
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
