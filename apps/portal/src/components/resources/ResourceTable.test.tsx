import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyInventoryMessage } from './empty-inventory';
import { ResourceTable, type InventoryPageView, type ResourceRow } from './ResourceTable';

const refresh = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh, replace: vi.fn() }) }));

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

const page = (overrides: Partial<InventoryPageView> = {}): InventoryPageView => ({
  rows,
  total: rows.length,
  start: 0,
  next: null,
  previous: null,
  inventoryEmpty: false,
  ...overrides,
});

describe('inventory table', () => {
  it('lists the page with a link to each resource, as a table and as cards for phones', () => {
    render(<ResourceTable page={page()} view={{}} />);
    const table = screen.getByRole('table', { name: 'Storage accounts' });
    expect(within(table).getByRole('link', { name: 'stshop01' })).toHaveAttribute('href', '/resources/stshop01');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const cards = screen.getByRole('list', { name: 'Storage accounts' });
    expect(within(cards).getAllByRole('listitem')).toHaveLength(2);
    expect(within(cards).getByRole('link', { name: 'stbilling02' })).toHaveAttribute('href', '/resources/stbilling02');
    expect(within(cards).getByText('billing · rg-b · northeurope · Premium_ZRS · 5m old')).toBeInTheDocument();
  });

  it('shows a Namespace column only for namespaced accounts, each linking to that namespace alone', () => {
    const { unmount } = render(<ResourceTable page={page()} view={{}} />);
    expect(screen.queryByRole('columnheader', { name: 'Namespace' })).not.toBeInTheDocument();
    unmount();
    const namespacedRows = rows.map((row, index) => ({ ...row, namespace: index === 0 ? 'webshop' : 'billing' }));
    render(<ResourceTable page={page({ rows: namespacedRows })} view={{ sort: '-age' }} />);
    const table = screen.getByRole('table', { name: 'Storage accounts' });
    expect(within(table).getByRole('columnheader', { name: 'Namespace' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'webshop' })).toHaveAttribute(
      'href',
      '/resources?namespace=webshop&sort=-age',
    );
    const cards = screen.getByRole('list', { name: 'Storage accounts' });
    expect(within(cards).getByText('webshop · shop · rg-a · westeurope · Standard_LRS · 3h old')).toBeInTheDocument();
  });

  it('says when nothing matches the filter', () => {
    render(<ResourceTable page={page({ rows: [], total: 0 })} view={{ q: 'nothing-like-this' }} />);
    expect(screen.getByText('No resources match "nothing-like-this".')).toBeInTheDocument();
  });

  it('links each column to its sort order, the current one reversed, and marks it for assistive technology', () => {
    render(<ResourceTable page={page()} view={{ q: 'shop', sort: 'name' }} />);
    const table = screen.getByRole('table', { name: 'Storage accounts' });
    expect(within(table).getByRole('link', { name: 'Name' })).toHaveAttribute('href', '/resources?q=shop&sort=-name');
    expect(within(table).getByRole('link', { name: 'Age' })).toHaveAttribute('href', '/resources?q=shop&sort=age');
    expect(within(table).getByRole('link', { name: 'Intent' })).toHaveAttribute('href', '/resources?q=shop&sort=class');
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('shows where the page sits among the matches, with links to the pages around it', () => {
    render(<ResourceTable page={page({ total: 1234, start: 50, next: 'n1', previous: 'p1' })} view={{ q: 'st' }} />);
    const pager = screen.getByRole('navigation', { name: 'Inventory pages' });
    expect(within(pager).getByText('51–52 of 1,234')).toBeInTheDocument();
    expect(within(pager).getByRole('link', { name: 'Next page' })).toHaveAttribute('href', '/resources?q=st&cursor=n1');
    expect(within(pager).getByRole('link', { name: 'Previous page' })).toHaveAttribute(
      'href',
      '/resources?q=st&cursor=p1',
    );
  });

  it('says so when there is nothing yet', () => {
    render(<ResourceTable page={page({ rows: [], total: 0, inventoryEmpty: true })} view={{}} />);
    expect(screen.getByText('No storage accounts yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a storage account' })).toHaveAttribute(
      'href',
      '/catalog/azure-storage',
    );
  });

  it('says in development mode that the list stays empty even after a create, instead of "nothing yet"', () => {
    render(
      <ResourceTable
        page={page({ rows: [], total: 0, inventoryEmpty: true })}
        view={{}}
        emptyMessage={emptyInventoryMessage('mock')}
      />,
    );
    expect(
      screen.getByText(/Development mode stores nothing, so this list stays empty, even after a create/),
    ).toBeVisible();
    expect(screen.queryByText('No storage accounts yet.')).toBeNull();
    expect(emptyInventoryMessage('kubernetes')).toBe('No storage accounts yet.');
  });

  it('shows the class against intent, with every differing setting in the title of its chip', () => {
    const drifted: ResourceRow = {
      ...rows[0]!,
      classification: { code: 'cluster_drift', fields: ['location', 'minTlsVersion', 'publicNetworkAccess'] },
    };
    render(<ResourceTable page={page({ rows: [drifted], total: 1 })} view={{}} />);
    const table = screen.getByRole('table', { name: 'Storage accounts' });
    const [chip] = within(table).getAllByText(/^Changed in the cluster: Location/);
    expect(chip?.closest('[data-classification]')).toHaveAttribute(
      'title',
      expect.stringMatching(/^Changed in the cluster: Location, Minimum TLS version, Public network access\. /),
    );
  });

  it('refreshes the server data on request', async () => {
    render(<ResourceTable page={page()} view={{}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(refresh).toHaveBeenCalled();
  });
});
