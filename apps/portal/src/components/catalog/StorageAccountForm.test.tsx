import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StorageAccountForm } from './StorageAccountForm';

const groups = [
  { name: 'rg-books-dev', location: 'westeurope', ready: true },
  { name: 'rg-books-prod', location: 'northeurope', ready: true },
];

const locations = ['westeurope', 'northeurope', 'westus3'] as const;

function preview() {
  return screen.getByTestId('manifest-preview').textContent ?? '';
}

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

afterEach(() => vi.unstubAllGlobals());

describe('storage account workflow form', () => {
  it('previews the manifest live as the person types', async () => {
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    expect(preview()).toContain('kind: Account');
    expect(preview()).toContain('generateName: st');
    await userEvent.type(screen.getByRole('textbox', { name: /Account name/ }), 'stshop01');
    await userEvent.type(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    expect(preview()).toContain('name: stshop01');
    expect(preview()).toContain('platform-portal/application: shop');
    expect(preview()).toContain('minTlsVersion: TLS1_2');
  });

  it("offers the resource group's own location first, then every allowed one", async () => {
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    await userEvent.click(screen.getByRole('combobox', { name: /Location/ }));
    const options = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(["westeurope (the resource group's location)", 'northeurope', 'westus3']);
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'westus3' }));
    expect(preview()).toContain('location: westus3');
    await choose(/Resource group/, 'rg-books-prod (northeurope)');
    await userEvent.click(screen.getByRole('combobox', { name: /Location/ }));
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]).toHaveTextContent(
      "northeurope (the resource group's location)",
    );
  });

  it('shows errors beside the fields once the person has left them', async () => {
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    const name = screen.getByRole('textbox', { name: /Account name/ });
    await userEvent.type(name, 'AB');
    expect(screen.queryByText(/Use 3-24 lower-case letters and digits, or leave empty/)).toBeNull();
    await userEvent.tab();
    expect(name).toHaveAccessibleDescription(/Use 3-24 lower-case letters and digits, or leave empty/);
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses to submit an incomplete request and says where the problems are', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create storage account' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Some fields need attention');
    expect(screen.getByRole('textbox', { name: /Application/ })).toHaveAccessibleDescription(
      /Use 1-40 lower-case letters/,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('forces Premium for a premium-only kind and disables geo-redundant replication', async () => {
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    await choose(/Account kind/, 'FileStorage');
    const tier = screen.getByRole('combobox', { name: /Performance tier/ });
    expect(tier).toHaveTextContent('Premium');
    expect(tier).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(screen.getByRole('combobox', { name: /Replication/ }));
    expect(within(screen.getByRole('listbox')).getByRole('option', { name: 'GRS' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('enables SFTP only with hierarchical namespace', async () => {
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    const sftp = screen.getByRole('switch', { name: 'SFTP' });
    expect(sftp).toBeDisabled();
    await userEvent.click(screen.getByRole('switch', { name: /Hierarchical namespace/ }));
    expect(sftp).toBeEnabled();
    await userEvent.click(sftp);
    expect(preview()).toContain('sftpEnabled: true');
  });

  it('submits the request and links to the new resource', async () => {
    const fetchSpy = vi.fn(async () =>
      Response.json(
        { item: { name: 'stshopxk2p9', state: 'Provisioning', conditions: [], settings: {}, observed: {} } },
        { status: 201 },
      ),
    );
    vi.stubGlobal('fetch', fetchSpy);
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    await userEvent.click(screen.getByRole('button', { name: 'Create storage account' }));
    const link = await screen.findByRole('link', { name: 'Open stshopxk2p9' });
    expect(link).toHaveAttribute('href', '/resources/stshopxk2p9');
    const [url, init] = fetchSpy.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/platform/resources');
    expect(JSON.parse(init.body as string)).toMatchObject({
      application: 'shop',
      resourceGroup: 'rg-books-dev',
      location: 'westeurope',
    });
  });

  it('puts the server field errors beside the fields', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json(
        { error: 'A storage account named stshop01 already exists', fields: { name: 'Name already taken' } },
        { status: 409 },
      ),
    );
    render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
    await userEvent.type(screen.getByRole('textbox', { name: /Account name/ }), 'stshop01');
    await userEvent.type(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('already exists');
    expect(screen.getByRole('textbox', { name: /Account name/ })).toHaveAccessibleDescription('Name already taken');
  });
});
