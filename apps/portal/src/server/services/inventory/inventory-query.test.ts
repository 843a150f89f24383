import { describe, expect, it } from 'vitest';
import { CLASSIFICATION_CODES } from '@/lib/platform/classification';
import { ACCOUNT_STATES, type StorageAccount } from '@/lib/platform/types';
import { InvalidRequestError } from '../../model/errors';
import { parseInventoryQuery, SORT_ORDERS, type InventoryPage, type InventoryQuery } from './inventory-query';
import { InventoryReadModel } from './read-model';

const APPLICATIONS = ['books', 'Books', 'webshop', undefined];

/** Accounts with repeated keys in every sortable field, so ties are broken by name. */
function accounts(count: number): StorageAccount[] {
  return Array.from({ length: count }, (_, index) => {
    const application = APPLICATIONS[index % APPLICATIONS.length];
    return {
      name: `st${((index * 7919) % count).toString().padStart(4, '0')}`,
      ...(application ? { application } : {}),
      environment: index % 2 === 0 ? 'dev' : 'prod',
      resourceGroup: `rg-${index % 3}`,
      location: index % 2 === 0 ? 'westeurope' : 'northeurope',
      sku: 'Standard_LRS',
      state: ACCOUNT_STATES[index % ACCOUNT_STATES.length] ?? 'Ready',
      createdAt: new Date(Date.UTC(2026, 0, 1) + (index % 17) * 60_000).toISOString(),
      // Every class, and some items with none (development mode's, say).
      ...(index % 11 === 0
        ? {}
        : { classification: { code: CLASSIFICATION_CODES[index % 9] ?? 'in_sync', fields: [] } }),
    } as StorageAccount;
  });
}

const query = (params: Record<string, string>) => parseInventoryQuery(new URLSearchParams(params));

/** A page of these accounts, as the read model of a version holding them answers it. */
const inventoryPage = (all: readonly StorageAccount[], params: InventoryQuery): InventoryPage =>
  new InventoryReadModel(() => all).page(params);

/** Follows `next` from the first page to the last. */
function walk(all: readonly StorageAccount[], params: Record<string, string>): StorageAccount[] {
  const seen: StorageAccount[] = [];
  let page = inventoryPage(all, query(params));
  seen.push(...page.items);
  while (page.next) {
    page = inventoryPage(all, query({ ...params, cursor: page.next }));
    seen.push(...page.items);
  }
  return seen;
}

describe('inventory paging, filtering and sorting', () => {
  const all = accounts(503);

  it('walks every account exactly once in every sort order, with the total on each page', () => {
    for (const sort of SORT_ORDERS) {
      const seen = walk(all, { sort, limit: '37' });
      expect(seen.map((a) => a.name).sort(), sort).toEqual(all.map((a) => a.name).sort());
      expect(new Set(seen.map((a) => a.name)).size, sort).toBe(all.length);
    }
    expect(inventoryPage(all, query({ limit: '37' })).total).toBe(503);
  });

  it('sorts by the field case-insensitively, ties by name, "-" reversing and age youngest first', () => {
    const byApplication = walk(all, { sort: 'application', limit: '500' });
    const keys = byApplication.map((a) => `${(a.application ?? '').toLowerCase()}\u0000${a.name}`);
    expect(keys).toEqual([...keys].sort());
    const reversed = walk(all, { sort: '-application', limit: '500' });
    expect(reversed.map((a) => a.name)).toEqual(byApplication.map((a) => a.name).reverse());
    const byAge = walk(all, { sort: 'age', limit: '500' }).map((a) => a.createdAt ?? '');
    expect(byAge).toEqual([...byAge].sort().reverse());
  });

  it('goes back with previous to exactly the page before', () => {
    const first = inventoryPage(all, query({ limit: '50', sort: '-name' }));
    const second = inventoryPage(all, query({ limit: '50', sort: '-name', cursor: first.next ?? '' }));
    expect(second.start).toBe(50);
    const back = inventoryPage(all, query({ limit: '50', sort: '-name', cursor: second.previous ?? '' }));
    expect(back.items).toEqual(first.items);
    expect(back.previous).toBeNull();
  });

  it('keeps a walk whole while accounts are added and removed between pages', () => {
    let current: StorageAccount[] = [...all];
    const seen: string[] = [];
    let page = inventoryPage(current, query({ limit: '40' }));
    seen.push(...page.items.map((a) => a.name));
    while (page.next) {
      // Someone else creates one account and deletes one that is already behind the walk.
      current = [
        ...current.filter((a) => a.name !== seen[0]),
        { ...all[0], name: `sz${seen.length}` } as StorageAccount,
      ];
      page = inventoryPage(current, query({ limit: '40', cursor: page.next }));
      seen.push(...page.items.map((a) => a.name));
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const account of all) expect(seen).toContain(account.name);
  });

  it('filters with q on every shown field, case-insensitively, and by state', () => {
    const expected = all.filter((a) =>
      [a.name, a.application, a.environment, a.resourceGroup, a.location, a.sku, a.state].some((v) =>
        v?.toLowerCase().includes('books'),
      ),
    );
    const page = inventoryPage(all, query({ q: 'BOOKS', limit: '500' }));
    expect(page.total).toBe(expected.length);
    expect(page.items.map((a) => a.name).sort()).toEqual(expected.map((a) => a.name).sort());
    expect(inventoryPage(all, query({ q: 'northeurope' })).total).toBe(
      all.filter((a) => a.location === 'northeurope').length,
    );
    const failed = inventoryPage(all, query({ state: 'failed', limit: '500' }));
    expect(failed.total).toBe(all.filter((a) => a.state === 'Failed').length);
    expect(failed.items.every((a) => a.state === 'Failed')).toBe(true);
  });

  it('filters by class against intent, with state and q, and sorts by class', () => {
    const drifted = walk(all, { class: 'drifted', limit: '7' });
    expect(drifted.map((a) => a.name).sort()).toEqual(
      all
        .filter((a) => a.classification?.code === 'drifted')
        .map((a) => a.name)
        .sort(),
    );
    const combined = inventoryPage(all, query({ class: 'pending', state: 'Ready', q: 'dev', limit: '500' }));
    const expected = all.filter(
      (a) => a.classification?.code === 'pending' && a.state === 'Ready' && a.environment === 'dev',
    );
    expect(combined.total).toBe(expected.length);
    expect(combined.items.map((a) => a.name)).toEqual(expected.map((a) => a.name).sort());
    const byClass = walk(all, { sort: 'class', limit: '500' }).map((a) => a.classification?.code ?? '');
    expect(byClass).toEqual([...byClass].sort());
  });

  it('refuses bad values with a 400 naming the parameter, and looks values up only among its own keys', () => {
    const cursor = inventoryPage(all, query({ limit: '5' })).next ?? '';
    const cases: [Record<string, string>, string][] = [
      [{ limit: '0' }, 'limit'],
      [{ limit: '501' }, 'limit'],
      [{ limit: '1.5' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ sort: '__proto__' }, 'sort'],
      [{ sort: 'constructor' }, 'sort'],
      [{ sort: 'size' }, 'sort'],
      [{ state: '__proto__' }, 'state'],
      [{ state: 'Sleeping' }, 'state'],
      [{ class: 'In sync' }, 'class'],
      [{ class: 'toString' }, 'class'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ cursor: Buffer.from('{"__proto__":1}').toString('base64url') }, 'cursor'],
      [{ cursor, sort: '-age' }, 'cursor'],
      [{ q: 'x'.repeat(201) }, 'q'],
    ];
    for (const [params, name] of cases) {
      let thrown: unknown;
      try {
        query(params);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(params)).toBeInstanceOf(InvalidRequestError);
      expect((thrown as Error).message.startsWith(`${name}:`), JSON.stringify(params)).toBe(true);
    }
    expect(parseInventoryQuery(new URLSearchParams({ limit: '0', sort: '__proto__' }), { lenient: true })).toEqual({
      limit: 100,
      sort: 'name',
    });
  });
});
