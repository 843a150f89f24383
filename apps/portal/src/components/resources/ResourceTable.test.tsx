import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyInventoryMessage } from './empty-inventory';
import { ResourceTable, type ResourceRow } from './ResourceTable';

const refresh = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh }) }));

const rows: ResourceRow[] = [
  {
    name: 'stshop01',
    application: 'shop',
    resourceGroup: 'rg-a',
    location: 'westeurope',
    sku: 'Standard_LRS',
    state: 'Ready',
    age: '3h',
  },
  {
    name: 'stbilling02',
    application: 'billing',
    resourceGroup: 'rg-b',
    location: 'northeurope',
    sku: 'Premium_ZRS',
    state: 'Provisioning',
    age: '5m',
  },
];

describe('inventory table', () => {
  it('lists every resource with a link to its page, as a table and as cards for phones', () => {
    render(<ResourceTable rows={rows} />);
    const table = screen.getByRole('table', { name: 'Storage accounts' });
    expect(within(table).getByRole('link', { name: 'stshop01' })).toHaveAttribute('href', '/resources/stshop01');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const cards = screen.getByRole('list', { name: 'Storage accounts' });
    expect(within(cards).getAllByRole('listitem')).toHaveLength(2);
    expect(within(cards).getByRole('link', { name: 'stbilling02' })).toHaveAttribute('href', '/resources/stbilling02');
    expect(within(cards).getByText('billing · rg-b · northeurope · Premium_ZRS · 5m old')).toBeInTheDocument();
  });

  it('filters on any column', async () => {
    render(<ResourceTable rows={rows} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Filter resources' }), 'premium');
    expect(screen.queryByRole('link', { name: 'stshop01' })).toBeNull();
    expect(screen.getAllByRole('link', { name: 'stbilling02' })).toHaveLength(2);
    await userEvent.clear(screen.getByRole('textbox', { name: 'Filter resources' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Filter resources' }), 'nothing-like-this');
    expect(screen.getByText('No resources match "nothing-like-this".')).toBeInTheDocument();
  });

  it('says so when there is nothing yet', () => {
    render(<ResourceTable rows={[]} />);
    expect(screen.getByText('No storage accounts yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a storage account' })).toHaveAttribute(
      'href',
      '/catalog/azure-storage',
    );
  });

  it('says in development mode that the list stays empty even after a create, instead of "nothing yet"', () => {
    render(<ResourceTable rows={[]} emptyMessage={emptyInventoryMessage('mock')} />);
    expect(
      screen.getByText(/Development mode stores nothing, so this list stays empty, even after a create/),
    ).toBeVisible();
    expect(screen.queryByText('No storage accounts yet.')).toBeNull();
    expect(emptyInventoryMessage('kubernetes')).toBe('No storage accounts yet.');
  });

  it('refreshes the server data on request', async () => {
    render(<ResourceTable rows={rows} />);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh the inventory' }));
    expect(refresh).toHaveBeenCalled();
  });
});
