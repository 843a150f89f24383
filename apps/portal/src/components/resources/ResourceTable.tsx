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
import type { AccountState } from '@/lib/platform/types';
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
  age: string;
}

function matches(row: ResourceRow, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  return [row.name, row.application, row.resourceGroup, row.location, row.sku, row.state].some((value) =>
    value?.toLowerCase().includes(needle),
  );
}

export function ResourceTable({ rows }: { rows: ResourceRow[] }) {
  const router = useRouter();
  const [filter, setFilter] = useState('');
  const [refreshing, startRefresh] = useTransition();
  const visible = useMemo(() => rows.filter((row) => matches(row, filter)), [rows, filter]);

  return (
    <Paper>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', p: 2 }}>
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
      <TableContainer>
        <Table size="small" aria-label="Storage accounts">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Application</TableCell>
              <TableCell>Resource group</TableCell>
              <TableCell>Location</TableCell>
              <TableCell>SKU</TableCell>
              <TableCell>State</TableCell>
              <TableCell>Age</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {visible.map((row) => (
              <TableRow key={row.name} hover>
                <TableCell>
                  <Link
                    component={NextLink}
                    href={`/resources/${encodeURIComponent(row.name)}`}
                    sx={{ fontWeight: 600 }}
                  >
                    {row.name}
                  </Link>
                </TableCell>
                <TableCell>{row.application ?? '—'}</TableCell>
                <TableCell>{row.resourceGroup ?? '—'}</TableCell>
                <TableCell>{row.location ?? '—'}</TableCell>
                <TableCell>{row.sku ?? '—'}</TableCell>
                <TableCell>
                  <StateChip state={row.state} {...(row.stateDetail ? { title: row.stateDetail } : {})} />
                </TableCell>
                <TableCell>{row.age}</TableCell>
              </TableRow>
            ))}
            {visible.length === 0 ? (
              <TableRow>
                <TableCell colSpan={7}>
                  <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                    {rows.length === 0 ? 'No storage accounts yet.' : `No resources match "${filter}".`}
                  </Typography>
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
