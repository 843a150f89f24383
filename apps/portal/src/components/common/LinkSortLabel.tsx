'use client';
import TableSortLabel, { type TableSortLabelProps } from '@mui/material/TableSortLabel';
import NextLink from 'next/link';

/**
 * A MUI TableSortLabel that navigates with next/link (a column header's sort order); usable from
 * Server Components. A module of its own, beside LinkButton's: a client module reaches the browser
 * whole, so the pages that only need a link button do not carry the sort label.
 */
export function LinkSortLabel(props: Omit<TableSortLabelProps<typeof NextLink>, 'component'>) {
  return <TableSortLabel component={NextLink} {...props} />;
}
