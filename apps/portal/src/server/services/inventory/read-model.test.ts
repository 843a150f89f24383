import { describe, expect, it, vi } from 'vitest';
import type { StorageAccount } from '@/lib/platform/types';
import { parseInventoryQuery } from './inventory-query';
import { InventoryReadModel, readModelOf } from './read-model';

const query = (params: Record<string, string>) => parseInventoryQuery(new URLSearchParams(params));

function accounts(count: number): StorageAccount[] {
  return Array.from(
    { length: count },
    (_, index) =>
      ({
        name: `st${index.toString().padStart(3, '0')}`,
        application: index % 2 === 0 ? 'shop' : 'books',
        state: index % 3 === 0 ? 'Failed' : 'Ready',
        classification: { code: index % 3 === 0 ? 'drifted' : 'in_sync', fields: [] },
      }) as unknown as StorageAccount,
  );
}

describe('the inventory read model', () => {
  it('is the same model while its inputs are the same objects, classified once, and a new one when one changes', () => {
    const cluster = accounts(5);
    const intents = new Map();
    const classify = vi.fn(() => cluster);
    const first = readModelOf(['cluster', cluster, intents], classify);
    expect(first.items).toEqual(cluster);
    expect(readModelOf(['cluster', cluster, intents], classify)).toBe(first);
    expect(first.items).toBe(first.items);
    expect(Object.isFrozen(first.items)).toBe(true);
    expect(classify).toHaveBeenCalledTimes(1);

    const changed = readModelOf(['cluster', [...cluster], intents], classify);
    expect(changed).not.toBe(first);
    expect(readModelOf(['cluster', cluster, intents], classify)).not.toBe(first);
  });

  it('computes each order, filter, count and summary once per version, on first use', () => {
    const classify = vi.fn(() => accounts(30));
    const model = new InventoryReadModel(classify);
    expect(classify).not.toHaveBeenCalled();
    expect(model.ordered('-name')).toBe(model.ordered('-name'));
    const failed = query({ state: 'Failed', q: 'SHOP' });
    expect(model.matching(failed)).toBe(model.matching(query({ state: 'Failed', q: 'shop' })));
    expect(model.matching(query({}))).toBe(model.ordered('name'));
    expect(model.counts()).toBe(model.counts());
    expect(model.counts()).toMatchObject({ total: 30, byClass: { drifted: 10, in_sync: 20 } });
    expect(model.applications()).toBe(model.applications());
    expect(model.page(failed).total).toBe(5);
    expect(classify).toHaveBeenCalledTimes(1);
    const fresh = new InventoryReadModel(classify);
    expect(fresh.counts()).not.toBe(model.counts());
  });

  it('keeps a bounded number of filters, the latest', () => {
    const model = new InventoryReadModel(() => accounts(10));
    const first = model.matching(query({ q: 'st000' }));
    for (let index = 1; index < 64; index += 1) model.matching(query({ q: `filter${index}` }));
    expect(model.matching(query({ q: 'st000' }))).toBe(first);
    model.matching(query({ q: 'one more' }));
    const again = model.matching(query({ q: 'st000' }));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('is shared by separately loaded copies of the module, as Next.js loads one per bundle', async () => {
    const copyA = await import('./read-model');
    vi.resetModules();
    const copyB = await import('./read-model');
    expect(copyB).not.toBe(copyA);
    const inputs = ['cluster', accounts(2)];
    const model = copyA.readModelOf(inputs, () => accounts(2));
    expect(copyB.readModelOf([...inputs], () => accounts(2))).toBe(model);
    const readAt = copyA.noteClusterRead();
    expect(copyB.lastClusterRead()).toBe(readAt);
  });
});
