'use client';
import Refresh from '@mui/icons-material/Refresh';
import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import NextLink from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState, useTransition } from 'react';
import type { Classification } from '@/lib/platform/classification';
import type { AccountState } from '@/lib/platform/types';
import { EMPTY_INVENTORY } from './empty-inventory';
import { ClassificationChip } from './ClassificationChip';
import { StateChip } from './StateChip';

/** One inventory row; the server computes `age` so server and browser render the same text. */
export interface ResourceRow {
  name: string;
  application?: string;
  resourceGroup?: string;
  location?: string;
  sku?: string;
  state: AccountState;
  stateDetail?: string;
  classification?: Classification;
  age: string;
}

function matches(row: ResourceRow, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  return [row.name, row.application, row.resourceGroup, row.location, row.sku, row.state].some((value) =>
    value?.toLowerCase().includes(needle),
  );
}

function NameLink({ name }: { name: string }) {
  return (
    <Link component={NextLink} href={`/resources/${encodeURIComponent(name)}`} sx={{ fontWeight: 600 }}>
      {name}
    </Link>
  );
}

export function ResourceTable({
  rows,
  emptyMessage = EMPTY_INVENTORY,
}: {
  rows: ResourceRow[];
  /** Said when there are no rows at all (e.g. none in the state the page filters by). */
  emptyMessage?: string;
}) {
  const router = useRouter();
  const [filter, setFilter] = useState('');
  const [refreshing, startRefresh] = useTransition();
  const visible = useMemo(() => rows.filter((row) => matches(row, filter)), [rows, filter]);

  return (
    <Paper>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', p: 2, minWidth: 0 }}>
        <TextField
          label="Filter resources"
          placeholder="Name, application, group, location, SKU or state"
          size="small"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          sx={{ flexGrow: 1, maxWidth: 480 }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Tooltip title="Refresh">
          <span>
            <IconButton
              aria-label="Refresh the inventory"
              disabled={refreshing}
              onClick={() => startRefresh(() => router.refresh())}
            >
              <Refresh />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
      {rows.length === 0 ? (
        <Box sx={{ px: 2, pb: 3, pt: 1, textAlign: 'center' }}>
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {emptyMessage}
          </Typography>
          <Link component={NextLink} href="/catalog/azure-storage">
            Request a storage account
          </Link>
        </Box>
      ) : visible.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 3, pt: 1, textAlign: 'center', overflowWrap: 'anywhere' }}>
          No resources match &quot;{filter}&quot;.
        </Typography>
      ) : (
        <>
          {/* Wide screens: a table. Phones: one card per account, so nothing sits off-screen. */}
          <TableContainer sx={{ display: { xs: 'none', md: 'block' } }}>
            <Table size="small" aria-label="Storage accounts">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Application</TableCell>
                  <TableCell>Resource group</TableCell>
                  <TableCell>Location</TableCell>
                  <TableCell>SKU</TableCell>
                  <TableCell>State</TableCell>
                  <TableCell>Intent</TableCell>
                  <TableCell>Age</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {visible.map((row) => (
                  <TableRow key={row.name} hover>
                    <TableCell>
                      <NameLink name={row.name} />
                    </TableCell>
                    <TableCell>{row.application ?? '—'}</TableCell>
                    <TableCell>{row.resourceGroup ?? '—'}</TableCell>
                    <TableCell>{row.location ?? '—'}</TableCell>
                    <TableCell>{row.sku ?? '—'}</TableCell>
                    <TableCell>
                      <StateChip state={row.state} {...(row.stateDetail ? { title: row.stateDetail } : {})} />
                    </TableCell>
                    <TableCell>
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
            {visible.map((row) => (
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
                  {[row.application, row.resourceGroup, row.location, row.sku].filter(Boolean).join(' · ')}
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
        </>
      )}
    </Paper>
  );
}
