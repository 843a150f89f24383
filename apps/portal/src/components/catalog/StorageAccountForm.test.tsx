import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StorageAccountForm } from './StorageAccountForm';

// The whole MUI form renders in jsdom per test; on a shared, busy machine that alone can take seconds.
vi.setConfig({ testTimeout: 90_000 });

const push = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ push, refresh: vi.fn() }) }));

const groups = [
  { name: 'rg-books-dev', location: 'westeurope', ready: true },
  { name: 'rg-books-prod', location: 'northeurope', ready: true },
];
const locations = ['westeurope', 'northeurope', 'westus3'] as const;
const created = { name: 'stshopxk2p9', state: 'Provisioning', conditions: [], settings: {}, observed: {} };
const dryRunManifest = { apiVersion: 'storage.azure.upbound.io/v1beta1', kind: 'Account', metadata: { labels: {} } };

function renderForm() {
  render(<StorageAccountForm resourceGroups={groups} locations={locations} />);
}

/** Pastes the text: one change event instead of one re-render of the whole form per key typed. */
async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

function preview() {
  return screen.getByTestId('manifest-preview').textContent ?? '';
}

async function choose(label: RegExp, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: option }));
}

/** A portal API that answers dry runs and creates; every call is recorded. */
function stubPlatform(answer?: (url: string) => Response | undefined) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const special = answer?.(url);
    if (special) return special;
    if (url.includes('dryRun=true')) return Response.json({ item: created, manifest: dryRunManifest });
    return Response.json({ item: created }, { status: 201 });
  });
  return calls;
}

async function goToReview() {
  await fill(screen.getByRole('textbox', { name: /Application/ }), 'shop');
  await userEvent.click(screen.getByRole('button', { name: 'Next' }));
  await screen.findByRole('heading', { name: /Networking and security/ });
  await userEvent.click(screen.getByRole('button', { name: 'Review' }));
  await screen.findByText('Dry run passed');
}

beforeEach(() => push.mockReset());
afterEach(() => vi.unstubAllGlobals());

describe('storage account workflow form', () => {
  it('previews the manifest live as the person types, with neutral portal labels', async () => {
    renderForm();
    expect(preview()).toContain('kind: Account');
    expect(preview()).toContain('generateName: st');
    await fill(screen.getByRole('textbox', { name: /Account name/ }), 'stshop01');
    await fill(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    expect(preview()).toContain('name: stshop01');
    expect(preview()).toContain('platform-portal/application: shop');
    expect(preview()).not.toContain('books.dev');
  });

  it("in namespaced scope previews a v2 Account in its application's namespace and offers that namespace's groups", async () => {
    const teamGroups = [
      { name: 'rg-shop', location: 'westeurope', ready: true, namespace: 'shop' },
      { name: 'rg-billing', location: 'westeurope', ready: true, namespace: 'billing' },
    ];
    render(
      <StorageAccountForm
        resourceGroups={teamGroups}
        locations={locations}
        scope={{ kind: 'namespaced', namespaceTemplate: '{application}', providerConfig: 'azure-prod' }}
      />,
    );
    await fill(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    expect(preview()).toContain('apiVersion: storage.azure.m.upbound.io/v1beta1');
    expect(preview()).toContain('namespace: shop');
    expect(preview()).toContain('kind: ClusterProviderConfig');
    expect(preview()).toContain('name: azure-prod');
    await userEvent.click(screen.getByRole('combobox', { name: /Resource group/ }));
    const offered = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered).toEqual(['rg-shop (westeurope)']);
  });

  it("offers the resource group's own location first, then every allowed one", async () => {
    renderForm();
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

  it('says which name rule is broken once the person leaves the field, and never cuts a long name', async () => {
    renderForm();
    const name = screen.getByRole('textbox', { name: /Account name/ });
    await userEvent.type(name, 'AB');
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    await userEvent.tab();
    expect(name).toHaveAccessibleDescription(/^Invalid characters/);
    await userEvent.clear(name);
    await userEvent.type(name, 'ab');
    expect(name).toHaveAccessibleDescription('Too short: use at least 3 characters (this has 2)');
    await userEvent.clear(name);
    await fill(name, 'a'.repeat(30));
    expect(name).toHaveValue('a'.repeat(30));
    expect(name).toHaveAccessibleDescription('Too long: use at most 24 characters (this has 30)');
  });

  it('stops at a step with problems, announces them, shows them beside the fields and focuses the first', async () => {
    const calls = stubPlatform();
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const summary = screen.getByRole('alert');
    expect(summary).toHaveTextContent('Application: Application is required');
    const application = screen.getByRole('textbox', { name: /Application/ });
    expect(application).toHaveAccessibleDescription('Application is required');
    await waitFor(() => expect(application).toHaveFocus());
    expect(screen.getByRole('heading', { name: /Step 1 of 3: Basics/ })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('forces Premium for a premium-only kind and disables geo-redundant replication', async () => {
    renderForm();
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

  it('enables SFTP only with hierarchical namespace, on the networking and security step', async () => {
    renderForm();
    await fill(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    const sftp = await screen.findByRole('switch', { name: 'SFTP' });
    expect(sftp).toBeDisabled();
    expect(sftp).toHaveAccessibleDescription('Requires hierarchical namespace.');
    await userEvent.click(screen.getByRole('switch', { name: /Hierarchical namespace/ }));
    expect(sftp).toBeEnabled();
    await userEvent.click(sftp);
    expect(preview()).toContain('sftpEnabled: true');
  });

  it('reviews with a server dry run, creates nothing before confirming, and creates once on a double click', async () => {
    const calls = stubPlatform();
    renderForm();
    await goToReview();
    expect(calls.map((call) => call.url)).toEqual(['/api/platform/resources?dryRun=true']);
    expect(screen.getByText(/Exactly what the server will submit/)).toBeInTheDocument();
    expect(preview()).toContain('apiVersion: storage.azure.upbound.io/v1beta1');

    const create = screen.getByRole('button', { name: 'Create storage account' });
    await userEvent.dblClick(create);
    await waitFor(() => expect(push).toHaveBeenCalledWith('/resources/stshopxk2p9'));
    const creates = calls.filter((call) => call.url === '/api/platform/resources');
    expect(creates).toHaveLength(1);
    const headers = creates[0]!.init.headers as Record<string, string>;
    expect(headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(creates[0]!.init.body as string)).toMatchObject({
      application: 'shop',
      resourceGroup: 'rg-books-dev',
      location: 'westeurope',
    });
    expect(screen.getByText(/The platform is creating/)).toHaveTextContent('The platform is creating stshopxk2p9');
  });

  it('sends the person back to the field the server refused, with its message beside it', async () => {
    stubPlatform((url) =>
      url.includes('dryRun=true')
        ? Response.json({ error: 'A storage account named "stshop01" already exists' }, { status: 409 })
        : undefined,
    );
    renderForm();
    await fill(screen.getByRole('textbox', { name: /Account name/ }), 'stshop01');
    await fill(screen.getByRole('textbox', { name: /Application/ }), 'shop');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const name = await screen.findByRole('textbox', { name: /Account name/ });
    expect(name).toHaveAccessibleDescription('A storage account named "stshop01" already exists');
    await waitFor(() => expect(name).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent('Account name: A storage account named');
  });
});
