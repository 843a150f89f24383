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
    const name = `test.${Math.random()}`;
    const copyA = await import('./process-wide');
    vi.resetModules();
    const copyB = await import('./process-wide');
    expect(copyB).not.toBe(copyA);
    expect(copyB.processWide(name, () => ({}))).toBe(copyA.processWide(name, () => ({})));
  });
});
