import { describe, expect, it, vi } from 'vitest';
import { processWide } from './process-wide';

describe('processWide', () => {
  it('makes the value once and hands out the same one afterwards', () => {
    const create = vi.fn(() => ({ made: Math.random() }));
    const name = `test.${Math.random()}`;
    const first = processWide(name, create);
    expect(processWide(name, create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
    expect(processWide(`${name}.other`, create)).not.toBe(first);
  });

  it('is shared by separately loaded copies of a module, as Next.js loads one per bundle', async () => {
    const summaryA = await import('../services/inventory/inventory-summary');
    vi.resetModules();
    const summaryB = await import('../services/inventory/inventory-summary');
    expect(summaryB).not.toBe(summaryA);
    const accounts = [
      { name: 'sta', state: 'Ready', application: 'shop' },
      { name: 'stb', state: 'Failed', application: 'shop' },
    ] as unknown as Parameters<typeof summaryA.inventoryCounts>[0];
    expect(summaryB.inventoryCounts(accounts)).toBe(summaryA.inventoryCounts(accounts));
    expect(summaryB.applicationSummaries(accounts)).toBe(summaryA.applicationSummaries(accounts));
  });
});
