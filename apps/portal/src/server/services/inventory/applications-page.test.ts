import { describe, expect, it } from 'vitest';
import { ACCOUNT_STATES, type StorageAccount } from '@/lib/platform/types';
import { applicationsPage, parseApplicationsCursor } from './applications-page';
import { applicationSummaries, type ApplicationSummary } from './inventory-summary';

/** Accounts of `applications` applications (names differing in case and accents too), some without one. */
function accounts(applications: number, perApplication = 3): StorageAccount[] {
  const names = Array.from({ length: applications }, (_, index) =>
    index % 5 === 0 ? `Shop-${index}` : index % 7 === 0 ? `école-${index}` : `app-${index.toString().padStart(3, '0')}`,
  );
  const result: StorageAccount[] = [];
  for (let copy = 0; copy < perApplication; copy += 1) {
    names.forEach((application, index) =>
      result.push({
        name: `st${index.toString().padStart(3, '0')}${copy}`,
        application,
        environment: copy % 2 === 0 ? 'dev' : 'prod',
        state: ACCOUNT_STATES[index % ACCOUNT_STATES.length] ?? 'Ready',
      } as StorageAccount),
    );
  }
  result.push({ name: 'stnoapplication', state: 'Ready' } as StorageAccount);
  return result;
}

const label = (summary: ApplicationSummary) => summary.application ?? '(none)';

/** Follows `next` from the first page, or `previous` from the last one. */
function walk(summaries: readonly ApplicationSummary[], limit: number, backwards = false): string[][] {
  const pages: string[][] = [];
  let page = applicationsPage(summaries, { limit });
  if (backwards) {
    while (page.next) page = applicationsPage(summaries, { limit, cursor: parseApplicationsCursor(page.next) });
  }
  pages.push(page.items.map(label));
  for (;;) {
    const token = backwards ? page.previous : page.next;
    if (!token) break;
    page = applicationsPage(summaries, { limit, cursor: parseApplicationsCursor(token) });
    if (backwards) pages.unshift(page.items.map(label));
    else pages.push(page.items.map(label));
  }
  return pages;
}

describe('applications paging', () => {
  const summaries = applicationSummaries(accounts(53));

  it('walks every application once, in name order with the unassigned accounts last, forwards and backwards', () => {
    expect(summaries).toHaveLength(54);
    const forwards = walk(summaries, 7);
    expect(forwards.map((page) => page.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 5]);
    expect(forwards.flat()).toEqual(summaries.map(label));
    expect(forwards.flat().at(-1)).toBe('(none)');
    expect(walk(summaries, 7, true)).toEqual(forwards);
    const names = summaries.flatMap((s) => (s.application ? [s.application] : []));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('tells the position and the total on each page, and has no neighbours where there are none', () => {
    const first = applicationsPage(summaries, { limit: 50 });
    expect(first).toMatchObject({ total: 54, start: 0, previous: null });
    const second = applicationsPage(summaries, { limit: 50, cursor: parseApplicationsCursor(first.next ?? '') });
    expect(second).toMatchObject({ total: 54, start: 50, next: null });
    expect(second.items).toHaveLength(4);
    expect(applicationsPage([], {})).toEqual({ items: [], total: 0, start: 0, next: null, previous: null });
  });

  it('carries on after the application a page ended at when that application has gone in between', () => {
    const all = accounts(20);
    const before = applicationSummaries(all);
    const first = applicationsPage(before, { limit: 5 });
    const lastShown = first.items.at(-1)?.application;
    const after = applicationSummaries(all.filter((account) => account.application !== lastShown));
    const second = applicationsPage(after, { limit: 5, cursor: parseApplicationsCursor(first.next ?? '') });
    expect(second.items.map(label)).toEqual(before.slice(5, 10).map(label));
  });

  it('shows the first page for a cursor it did not give out', () => {
    for (const raw of [undefined, '', 'not-base64!', Buffer.from('["sideways","x"]').toString('base64url')]) {
      expect(parseApplicationsCursor(raw)).toBeUndefined();
    }
    expect(applicationsPage(summaries, { cursor: parseApplicationsCursor('garbage') }).start).toBe(0);
  });
});
