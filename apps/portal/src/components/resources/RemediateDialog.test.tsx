import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RemediationActions } from './RemediateDialog';

const refresh = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh }) }));

beforeEach(() => refresh.mockReset());
afterEach(() => vi.unstubAllGlobals());

const changes = [{ field: 'minTlsVersion', label: 'Minimum TLS version', from: 'TLS1_0', to: 'TLS1_2' }];

describe('remediation review', () => {
  it('asks the server for a dry run with the version the page read, and lists what it changes', async () => {
    const fetchSpy = vi.fn(async () => Response.json({ item: { name: 'stshop01' }, changes }));
    vi.stubGlobal('fetch', fetchSpy);
    render(<RemediationActions name="stshop01" actions={['restore-intent']} resourceVersion="41" />);
    await userEvent.click(screen.getByRole('button', { name: 'Restore intent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore intent: stshop01' });
    expect(await within(dialog).findByText('The cluster accepted a dry run of this.')).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'What this changes' })).toHaveTextContent(
      'Minimum TLS version: TLS 1.0 → TLS 1.2',
    );
    expect(fetchSpy).toHaveBeenCalledWith(
      '/api/platform/resources/remediate?name=stshop01&dryRun=true',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ action: 'restore-intent', resourceVersion: '41' }),
      }),
    );
  });

  it('answers a stale version with the reason and a way to load the latest version', async () => {
    const conflict = 'Storage account "stshop01" was changed by someone else after you loaded it';
    const fetchSpy = vi
      .fn()
      .mockResolvedValueOnce(Response.json({ item: { name: 'stshop01' }, changes }))
      .mockResolvedValueOnce(Response.json({ error: conflict }, { status: 409 }));
    vi.stubGlobal('fetch', fetchSpy);
    render(<RemediationActions name="stshop01" actions={['restore-intent']} resourceVersion="41" />);
    await userEvent.click(screen.getByRole('button', { name: 'Restore intent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore intent: stshop01' });
    await within(dialog).findByText('The cluster accepted a dry run of this.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(`Not applied: ${conflict}`);
    expect(refresh).not.toHaveBeenCalled();
    await userEvent.click(within(alert).getByRole('button', { name: 'Load the latest version' }));
    expect(refresh).toHaveBeenCalledOnce();
    // The dialog closes (after its exit transition).
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('offers no reload for a refusal that reading again would not change', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'Adopting an account needs the admin role' }, { status: 403 })),
    );
    render(<RemediationActions name="stshop01" actions={['adopt']} />);
    await userEvent.click(screen.getByRole('button', { name: 'Adopt (observe only)' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Adopting an account needs the admin role');
    expect(within(alert).queryByRole('button')).toBeNull();
  });

  it('keeps the notice of an applied remediation once the refreshed page no longer offers it', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(Response.json({ item: { name: 'stshop01' }, changes }))
        .mockResolvedValueOnce(Response.json({ item: { name: 'stshop01' }, changes }, { status: 202 })),
    );
    const { rerender } = render(
      <RemediationActions name="stshop01" actions={['restore-intent']} resourceVersion="41" />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Restore intent' }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore intent: stshop01' });
    await within(dialog).findByText('The cluster accepted a dry run of this.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(refresh).toHaveBeenCalledOnce();
    // The refreshed page reads the account in sync: nothing to offer any more.
    rerender(<RemediationActions name="stshop01" actions={[]} resourceVersion="42" />);
    expect(screen.queryByRole('button', { name: 'Restore intent' })).toBeNull();
    expect(await screen.findByRole('status')).toHaveTextContent('Restore intent: accepted');
  });
});
