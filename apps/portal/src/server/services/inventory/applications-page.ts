import 'server-only';
import { compareApplications, type ApplicationSummary } from './inventory-summary';

/**
 * Paging of the applications page on the server, as the inventory is paged: a page renders a few
 * dozen application rows however many applications the platform holds. Cursors are keysets (the
 * application a page ends or starts at), so a walk through the pages sees every application once
 * even while applications appear or disappear in between.
 */

const APPLICATIONS_PAGE_SIZE = 50;

export interface ApplicationsPage {
  items: ApplicationSummary[];
  /** Applications on every page together (the accounts without one count as one row). */
  total: number;
  /** Position of the first item, from 0. */
  start: number;
  next: string | null;
  previous: string | null;
}

interface Cursor {
  direction: 'after' | 'before';
  /** Undefined for the row of accounts without an application, which comes last. */
  application: string | undefined;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.direction, cursor.application ?? null])).toString('base64url');
}

/** A cursor this page gave out, or undefined for anything else (a hand-edited URL shows the first page). */
export function parseApplicationsCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const [direction, application] = parsed as unknown[];
  if ((direction !== 'after' && direction !== 'before') || (application !== null && typeof application !== 'string')) {
    return undefined;
  }
  return { direction, application: application ?? undefined };
}

/** First index whose application comes after (or, with inclusive, at or after) the cursor's. */
function boundary(summaries: readonly ApplicationSummary[], application: string | undefined, inclusive: boolean) {
  let low = 0;
  let high = summaries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareApplications(summaries[middle]?.application, application);
    if (order > 0 || (inclusive && order === 0)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** One page of the summaries, which are in compareApplications order. */
export function applicationsPage(
  summaries: readonly ApplicationSummary[],
  { cursor, limit = APPLICATIONS_PAGE_SIZE }: { cursor?: Cursor | undefined; limit?: number },
): ApplicationsPage {
  let start = 0;
  let end = Math.min(summaries.length, limit);
  if (cursor?.direction === 'after') {
    start = boundary(summaries, cursor.application, false);
    end = Math.min(summaries.length, start + limit);
  } else if (cursor?.direction === 'before') {
    end = boundary(summaries, cursor.application, true);
    start = Math.max(0, end - limit);
  }
  const items = summaries.slice(start, end);
  const first = items[0];
  const last = items[items.length - 1];
  return {
    items,
    total: summaries.length,
    start,
    next: last && end < summaries.length ? encodeCursor({ direction: 'after', application: last.application }) : null,
    previous: first && start > 0 ? encodeCursor({ direction: 'before', application: first.application }) : null,
  };
}
