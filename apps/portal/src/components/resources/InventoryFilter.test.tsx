import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { InventoryFilter } from './InventoryFilter';

const replace = vi.fn();
// Next's router is one object for the page's life.
const router = { replace };
vi.mock('next/navigation', () => ({ useRouter: () => router }));

const field = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'Filter resources' });

describe('inventory filter', () => {
  beforeEach(() => replace.mockClear());

  it('asks for the filtered URL once typing settles, keeping state and sort and starting at the first page', async () => {
    render(<InventoryFilter view={{ state: 'Ready', class: 'drifted', sort: '-age' }} namespaced={false} />);
    await userEvent.type(field(), 'premium');
    // How many requests typing makes depends on the typing speed; the last one carries the whole text.
    await vi.waitFor(() =>
      expect(replace.mock.lastCall?.[0]).toBe('/resources?q=premium&state=Ready&class=drifted&sort=-age'),
    );
    expect(replace.mock.calls.length).toBeLessThanOrEqual('premium'.length);
    expect(replace.mock.lastCall?.[1]).toEqual({ scroll: false });
  });

  it('asks at once on Enter, and not again for the same text', async () => {
    render(<InventoryFilter view={{ q: 'shop' }} namespaced={false} />);
    await userEvent.type(field(), '{Enter}');
    expect(replace).not.toHaveBeenCalled();
    await userEvent.clear(field());
    await userEvent.type(field(), 'billing {Enter}');
    expect(replace).toHaveBeenCalledExactlyOnceWith('/resources?q=billing', { scroll: false });
  });

  it('keeps what is typed and the focus when the page rendered for an earlier filter arrives', async () => {
    const { rerender } = render(<InventoryFilter view={{}} namespaced={false} />);
    await userEvent.type(field(), 'prem{Enter}');
    expect(replace).toHaveBeenLastCalledWith('/resources?q=prem', { scroll: false });
    await userEvent.type(field(), 'ium');
    rerender(<InventoryFilter view={{ q: 'prem' }} namespaced={false} />);
    expect(field()).toHaveValue('premium');
    expect(field()).toHaveFocus();
    await vi.waitFor(() => expect(replace).toHaveBeenLastCalledWith('/resources?q=premium', { scroll: false }));
  });

  it('shows the filter of a URL it did not ask for (back, forward, a link)', async () => {
    const { rerender } = render(<InventoryFilter view={{ q: 'shop' }} namespaced={false} />);
    expect(field()).toHaveValue('shop');
    rerender(<InventoryFilter view={{}} namespaced={false} />);
    expect(field()).toHaveValue('');
    rerender(<InventoryFilter view={{ q: 'billing', sort: 'age' }} namespaced={false} />);
    expect(field()).toHaveValue('billing');
    expect(replace).not.toHaveBeenCalled();
  });

  it('is a plain search form carrying the other parameters when JavaScript has not run', () => {
    render(<InventoryFilter view={{ state: 'Failed', namespace: 'shop', sort: 'name' }} namespaced />);
    const form = screen.getByRole('search');
    expect(form).toHaveAttribute('action', '/resources');
    expect(field()).toHaveAttribute('name', 'q');
    expect(field()).toHaveAttribute('placeholder', 'Name, namespace, application, group, location, SKU or state');
    const hidden = [...form.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map((i) => [i.name, i.value]);
    // The default order is left out of URLs.
    expect(hidden).toEqual([
      ['state', 'Failed'],
      ['namespace', 'shop'],
    ]);
  });
});
