import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { AppLink, LinkButton } from '@/components/common/LinkButton';
import { LinkSortLabel } from '@/components/common/LinkSortLabel';
import { RefreshButton } from '@/components/common/RefreshButton';
import type { Classification } from '@/lib/platform/classification';
import type { AccountState } from '@/lib/platform/types';
import { ClassificationChip } from './ClassificationChip';
import { EMPTY_INVENTORY } from './empty-inventory';
import { InventoryFilter } from './InventoryFilter';
import { DEFAULT_SORT, inventoryHref, type InventoryView } from './inventory-href';
import { StateChip } from './StateChip';

/** One inventory row; the server computes `age` so server and browser render the same text. */
export interface ResourceRow {
  name: string;
  /** The Account's namespace (namespaced scope only). */
  namespace?: string;
  application?: string;
  resourceGroup?: string;
  location?: string;
  sku?: string;
  state: AccountState;
  stateDetail?: string;
  classification?: Classification;
  age: string;
}

/** One page of rows as the server filtered, sorted and cut it, and where the neighbouring pages start. */
export interface InventoryPageView {
  rows: ResourceRow[];
  /** Rows matching the filter, on all pages. */
  total: number;
  /** Position of the first row among them, from 0. */
  start: number;
  next: string | null;
  previous: string | null;
  /** Whether the inventory holds anything at all, filter or not. */
  inventoryEmpty: boolean;
}

const COLUMNS: { label: string; sort?: string; namespacedOnly?: true }[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Namespace', sort: 'namespace', namespacedOnly: true },
  { label: 'Application', sort: 'application' },
  { label: 'Resource group', sort: 'resourceGroup' },
  { label: 'Location', sort: 'location' },
  { label: 'SKU', sort: 'sku' },
  { label: 'State', sort: 'state' },
  { label: 'Intent', sort: 'class' },
  { label: 'Age', sort: 'age' },
];

function NameLink({ name }: { name: string }) {
  return (
    <AppLink href={`/resources/${encodeURIComponent(name)}`} sx={{ fontWeight: 600 }}>
      {name}
    </AppLink>
  );
}

/**
 * The inventory's page of rows, rendered on the server: filtering, sorting and paging are the
 * page's URL, so every control here is a link but the filter field and the refresh button.
 */
export function ResourceTable({
  page,
  view,
  emptyMessage = EMPTY_INVENTORY,
}: {
  page: InventoryPageView;
  /** The filter and order the page shows (without its cursor). */
  view: InventoryView;
  /** Said when there are no rows at all (e.g. none in the state the page filters by). */
  emptyMessage?: string;
}) {
  const sort = view.sort ?? DEFAULT_SORT;
  const rows = page.rows;
  // Crossplane v2's namespaced Accounts carry a namespace; cluster-scoped ones have no such column.
  const namespaced = rows.some((row) => row.namespace !== undefined) || view.namespace !== undefined;
  const columns = COLUMNS.filter((column) => namespaced || !column.namespacedOnly);
  const sortHref = (column: string) =>
    inventoryHref({ ...view, sort: sort === column ? `-${column}` : column, cursor: undefined });
  const first = page.start + 1;
  const last = page.start + rows.length;

  return (
    <Paper>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', p: 2, minWidth: 0 }}>
        <InventoryFilter view={view} namespaced={namespaced} />
        <RefreshButton />
      </Box>
      {page.inventoryEmpty || (rows.length === 0 && !view.q) ? (
        <Box sx={{ px: 2, pb: 3, pt: 1, textAlign: 'center' }}>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {emptyMessage}
          </Typography>
          <AppLink href="/catalog/azure-storage">Request a storage account</AppLink>
        </Box>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 3, pt: 1, textAlign: 'center', overflowWrap: 'anywhere' }}>
          No resources match &quot;{view.q}&quot;.
        </Typography>
      ) : (
        <>
          {/* Wide screens: a table. Phones: one card per account, so nothing sits off-screen. */}
          <TableContainer sx={{ display: { xs: 'none', md: 'block' } }}>
            <Table size="small" aria-label="Storage accounts">
              <TableHead>
                <TableRow>
                  {columns.map((column) => {
                    const active = column.sort !== undefined && sort.replace(/^-/, '') === column.sort;
                    const direction = sort.startsWith('-') ? 'desc' : 'asc';
                    return (
                      <TableCell
                        key={column.label}
                        {...(active ? { 'aria-sort': direction === 'asc' ? 'ascending' : 'descending' } : {})}
                      >
                        {column.sort ? (
                          <LinkSortLabel
                            href={sortHref(column.sort)}
                            active={active}
                            direction={active ? direction : 'asc'}
                          >
                            {column.label}
                          </LinkSortLabel>
                        ) : (
                          column.label
                        )}
                      </TableCell>
                    );
                  })}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.name} hover>
                    <TableCell>
                      <NameLink name={row.name} />
                    </TableCell>
                    {namespaced ? (
                      <TableCell>
                        {row.namespace ? (
                          <AppLink href={inventoryHref({ ...view, cursor: undefined, namespace: row.namespace })}>
                            {row.namespace}
                          </AppLink>
                        ) : (
                          '—'
                        )}
                      </TableCell>
                    ) : null}
                    <TableCell>{row.application ?? '—'}</TableCell>
                    <TableCell>{row.resourceGroup ?? '—'}</TableCell>
                    <TableCell>{row.location ?? '—'}</TableCell>
                    <TableCell>{row.sku ?? '—'}</TableCell>
                    <TableCell>
                      <StateChip state={row.state} {...(row.stateDetail ? { title: row.stateDetail } : {})} />
                    </TableCell>
                    {/* A long list of differing settings is cut short here; the chip's title and the account page have it all. */}
                    <TableCell sx={{ maxWidth: 180 }}>
                      {row.classification ? <ClassificationChip classification={row.classification} /> : '—'}
                    </TableCell>
                    <TableCell>{row.age}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Box
            component="ul"
            aria-label="Storage accounts"
            sx={{ display: { xs: 'grid', md: 'none' }, gap: 1, listStyle: 'none', m: 0, px: 2, pb: 2 }}
          >
            {rows.map((row) => (
              <Box
                component="li"
                key={row.name}
                sx={{
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 1,
                  p: 1.5,
                  minWidth: 0,
                  overflowWrap: 'anywhere',
                }}
              >
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'center' }}>
                  <NameLink name={row.name} />
                  <StateChip state={row.state} {...(row.stateDetail ? { title: row.stateDetail } : {})} />
                </Box>
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {[row.namespace, row.application, row.resourceGroup, row.location, row.sku]
                    .filter(Boolean)
                    .join(' · ')}
                  {` · ${row.age} old`}
                </Typography>
                {row.classification ? (
                  <Box sx={{ mt: 0.5 }}>
                    <ClassificationChip classification={row.classification} />
                  </Box>
                ) : null}
              </Box>
            ))}
          </Box>
          <Box
            component="nav"
            aria-label="Inventory pages"
            sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', px: 2, pb: 2 }}
          >
            <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
              {`${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${page.total.toLocaleString('en')}`}
            </Typography>
            <PageLink label="Previous page" href={page.previous && inventoryHref({ ...view, cursor: page.previous })} />
            <PageLink label="Next page" href={page.next && inventoryHref({ ...view, cursor: page.next })} />
          </Box>
        </>
      )}
    </Paper>
  );
}

function PageLink({ label, href }: { label: string; href: string | null }) {
  return href ? (
    <LinkButton href={href} size="small" variant="outlined" scroll={false}>
      {label}
    </LinkButton>
  ) : (
    <Button size="small" variant="outlined" disabled>
      {label}
    </Button>
  );
}
