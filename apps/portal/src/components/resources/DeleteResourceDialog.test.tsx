import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeleteResourceDialog } from './DeleteResourceDialog';

const push = vi.fn();
vi.mock('next/navigation', () => ({ useRouter: () => ({ push, refresh: vi.fn() }) }));

beforeEach(() => push.mockReset());
afterEach(() => vi.unstubAllGlobals());

async function openDialog() {
  render(<DeleteResourceDialog name="stshop01" />);
  await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
  return screen.getByRole('dialog', { name: 'Delete storage account stshop01?' });
}

describe('delete confirmation', () => {
  it('warns that the Azure account and its data are destroyed', async () => {
    const dialog = await openDialog();
    expect(dialog).toHaveTextContent('destroys the Azure storage account stshop01 and all the data in it');
  });

  it('enables deletion only once the exact name is typed', async () => {
    await openDialog();
    const confirm = screen.getByRole('button', { name: 'Delete storage account' });
    const input = screen.getByRole('textbox', { name: 'Name of the storage account' });
    expect(confirm).toBeDisabled();
    await userEvent.type(input, 'stshop0');
    expect(confirm).toBeDisabled();
    await userEvent.type(input, '1');
    expect(confirm).toBeEnabled();
  });

  it('deletes and returns to the inventory', async () => {
    const fetchSpy = vi.fn(async () => Response.json({ item: { name: 'stshop01' } }));
    vi.stubGlobal('fetch', fetchSpy);
    await openDialog();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of the storage account' }), 'stshop01');
    await userEvent.click(screen.getByRole('button', { name: 'Delete storage account' }));
    expect(fetchSpy).toHaveBeenCalledWith(
      '/api/platform/resources?name=stshop01',
      expect.objectContaining({ method: 'DELETE' }),
    );
    expect(push).toHaveBeenCalledWith('/resources?deleted=stshop01');
  });

  it('keeps the dialog open and shows the error when deletion fails', async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ error: 'The platform cluster is unreachable' }, { status: 503 }),
    );
    const dialog = await openDialog();
    await userEvent.type(screen.getByRole('textbox', { name: 'Name of the storage account' }), 'stshop01');
    await userEvent.click(screen.getByRole('button', { name: 'Delete storage account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('unreachable');
    expect(dialog).toBeInTheDocument();
    expect(push).not.toHaveBeenCalled();
  });
});
