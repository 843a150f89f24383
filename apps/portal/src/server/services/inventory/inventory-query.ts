import 'server-only';
import { CLASSIFICATION_CODES, type ClassificationCode } from '@/lib/platform/classification';
import { ACCOUNT_STATES, type AccountState, type StorageAccount } from '@/lib/platform/types';
import { InvalidRequestError } from '../../model/errors';
import { namespaceNameProblem } from '@/lib/platform/account-scope';

/**
 * Paging, filtering and sorting of the inventory on the server. Cursors are keysets (the sort key
 * and name of the item a page ends or starts at), so a walk through the pages sees every account
 * once even while accounts are created or deleted in between. Pure functions: the read model
 * (read-model.ts) keeps what they compute for each version of the inventory.
 */

const MAX_PAGE_SIZE = 500;
const DEFAULT_PAGE_SIZE = 100;
const MAX_QUERY_LENGTH = 200;

type Field = (account: StorageAccount) => string | undefined;

/** Sort orders by name; `-name` reverses one. "age" is youngest first, as kubectl's AGE column reads. */
const SORT_FIELDS = new Map<string, { field: Field; reversed: boolean }>([
  ['name', { field: (a) => a.name, reversed: false }],
  ['application', { field: (a) => a.application, reversed: false }],
  ['namespace', { field: (a) => a.namespace ?? undefined, reversed: false }],
  ['environment', { field: (a) => a.environment, reversed: false }],
  ['resourceGroup', { field: (a) => a.resourceGroup, reversed: false }],
  ['location', { field: (a) => a.location, reversed: false }],
  ['sku', { field: (a) => a.sku, reversed: false }],
  ['state', { field: (a) => a.state, reversed: false }],
  ['class', { field: (a) => a.classification?.code, reversed: false }],
  ['age', { field: (a) => a.createdAt, reversed: true }],
]);
export const SORT_ORDERS: readonly string[] = [...SORT_FIELDS.keys()].flatMap((key) => [key, `-${key}`]);

export interface InventoryQuery {
  limit: number;
  sort: string;
  q?: string;
  state?: AccountState;
  /** The classification against intent (the `class` parameter). */
  classification?: ClassificationCode;
  /** Accounts in this namespace only (namespaced scope). */
  namespace?: string;
  cursor?: Cursor;
}

export interface InventoryPage {
  items: StorageAccount[];
  /** Accounts matching q, state and class, on every page together. */
  total: number;
  /** Position of the first item among the matches, from 0. */
  start: number;
  next: string | null;
  previous: string | null;
}

interface Cursor {
  sort: string;
  /** Items after this position, or before it. */
  direction: 'after' | 'before';
  key: string;
  name: string;
}

const bad = (message: string) => new InvalidRequestError(message);

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.direction, cursor.key, cursor.name])).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 4 ||
    !parsed.every((part) => typeof part === 'string') ||
    !SORT_ORDERS.includes(parsed[0] as string) ||
    (parsed[1] !== 'after' && parsed[1] !== 'before')
  ) {
    throw bad('cursor: not a cursor this API gave out; start again without one');
  }
  const [sort, direction, key, name] = parsed as [string, 'after' | 'before', string, string];
  return { sort, direction, key, name };
}

/**
 * Reads limit, cursor, q, state, class, namespace and sort. Strict (the API): a bad value is a 400 naming the
 * parameter. Lenient (a page's URL): a bad value falls back to its default.
 */
export function parseInventoryQuery(params: URLSearchParams, { lenient = false } = {}): InventoryQuery {
  const query: InventoryQuery = { limit: DEFAULT_PAGE_SIZE, sort: 'name' };
  const attempt = (read: () => void) => {
    try {
      read();
    } catch (error) {
      if (!lenient || !(error instanceof InvalidRequestError)) throw error;
    }
  };
  attempt(() => {
    const sort = params.get('sort');
    if (sort === null) return;
    if (!SORT_ORDERS.includes(sort)) throw bad(`sort: must be one of ${SORT_ORDERS.join(', ')}`);
    query.sort = sort;
  });
  attempt(() => {
    const limit = params.get('limit');
    if (limit === null) return;
    const value = /^\d{1,4}$/.test(limit) ? Number(limit) : NaN;
    if (!(value >= 1 && value <= MAX_PAGE_SIZE)) throw bad(`limit: must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
    query.limit = value;
  });
  attempt(() => {
    const q = params.get('q')?.trim();
    if (!q) return;
    if (q.length > MAX_QUERY_LENGTH) throw bad(`q: must be at most ${MAX_QUERY_LENGTH} characters`);
    query.q = q;
  });
  attempt(() => {
    const state = params.get('state');
    if (state === null || state === '') return;
    const known = ACCOUNT_STATES.find((candidate) => candidate.toLowerCase() === state.toLowerCase());
    if (!known) throw bad(`state: must be one of ${ACCOUNT_STATES.join(', ')}`);
    query.state = known;
  });
  attempt(() => {
    const code = params.get('class');
    if (code === null || code === '') return;
    const known = CLASSIFICATION_CODES.find((candidate) => candidate === code);
    if (!known) throw bad(`class: must be one of ${CLASSIFICATION_CODES.join(', ')}`);
    query.classification = known;
  });
  attempt(() => {
    const namespace = params.get('namespace');
    if (namespace === null || namespace === '') return;
    const problem = namespaceNameProblem(namespace);
    if (problem) throw bad(`namespace: ${problem}`);
    query.namespace = namespace;
  });
  attempt(() => {
    const raw = params.get('cursor');
    if (raw === null || raw === '') return;
    const cursor = decodeCursor(raw);
    if (cursor.sort !== query.sort) throw bad(`cursor: was given out for sort=${cursor.sort}, not sort=${query.sort}`);
    query.cursor = cursor;
  });
  return query;
}

/** An account with its key in one sort order. */
export interface KeyedAccount {
  account: StorageAccount;
  key: string;
}

/** By key, then by name; plain code-unit order, so the server and any client agree. */
function compare(a: KeyedAccount | { key: string; name: string }, b: KeyedAccount): number {
  const aName = 'account' in a ? a.account.name : a.name;
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  if (aName !== b.account.name) return aName < b.account.name ? -1 : 1;
  return 0;
}

/** Whether an order runs from high keys to low ("-name", and "age": youngest, the latest timestamp, first). */
function runsDownward(sort: string): boolean {
  return sort.startsWith('-') !== (SORT_FIELDS.get(sort.replace(/^-/, ''))?.reversed ?? false);
}

/** The accounts in a sort order (one of SORT_ORDERS). */
export function sortedBy(accounts: readonly StorageAccount[], sort: string): readonly KeyedAccount[] {
  const spec = SORT_FIELDS.get(sort.replace(/^-/, ''));
  if (!spec) throw new Error(`unknown sort ${sort}`);
  const ascending = accounts
    .map((account) => ({ account, key: (spec.field(account) ?? '').toLowerCase() }))
    .sort((a, b) => compare(a, b));
  return runsDownward(sort) ? ascending.reverse() : ascending;
}

/** The text q is looked for in: the fields the inventory shows, lower-cased. */
export function searchTextOf(account: StorageAccount): string {
  return [
    account.name,
    account.namespace,
    account.application,
    account.environment,
    account.resourceGroup,
    account.location,
    account.sku,
    account.state,
  ]
    .filter((value): value is string => Boolean(value))
    .join('\n')
    .toLowerCase();
}

/** What a query's matches depend on besides the inventory, as a key; undefined when it filters nothing. */
export function filterKeyOf(query: InventoryQuery): string | undefined {
  const { q, state, classification, namespace } = query;
  if (q === undefined && state === undefined && classification === undefined && namespace === undefined) {
    return undefined;
  }
  return JSON.stringify([
    query.sort,
    state ?? null,
    classification ?? null,
    namespace ?? null,
    q?.toLowerCase() ?? null,
  ]);
}

/** The accounts of a sort order that match q, state, class and namespace, in that order. */
export function matchingIn(
  ordered: readonly KeyedAccount[],
  query: InventoryQuery,
  searchText: (account: StorageAccount) => string,
): readonly KeyedAccount[] {
  const needle = query.q?.toLowerCase();
  const { state, classification, namespace } = query;
  return ordered.filter(
    ({ account }) =>
      (state === undefined || account.state === state) &&
      (classification === undefined || account.classification?.code === classification) &&
      (namespace === undefined || account.namespace === namespace) &&
      (needle === undefined || searchText(account).includes(needle)),
  );
}

/** First index whose item comes after (or, with inclusive, at or after) the position in this order. */
function boundary(
  sequence: readonly KeyedAccount[],
  position: Cursor,
  descending: boolean,
  inclusive: boolean,
): number {
  const target = { key: position.key, name: position.name };
  let low = 0;
  let high = sequence.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const item = sequence[middle] as KeyedAccount;
    const order = descending ? compare(target, item) : -compare(target, item);
    if (order > 0 || (inclusive && order === 0)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The page of the query's matches (matchingIn's answer for it) that the query's cursor and limit ask for. */
export function pageOfMatches(matches: readonly KeyedAccount[], query: InventoryQuery): InventoryPage {
  const reversed = runsDownward(query.sort);

  let start = 0;
  let end = Math.min(matches.length, query.limit);
  if (query.cursor?.direction === 'after') {
    start = boundary(matches, query.cursor, reversed, false);
    end = Math.min(matches.length, start + query.limit);
  } else if (query.cursor?.direction === 'before') {
    end = boundary(matches, query.cursor, reversed, true);
    start = Math.max(0, end - query.limit);
  }
  const page = matches.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  const cursorAt = (item: KeyedAccount, direction: Cursor['direction']) =>
    encodeCursor({ sort: query.sort, direction, key: item.key, name: item.account.name });
  return {
    items: page.map(({ account }) => account),
    total: matches.length,
    start,
    next: last && end < matches.length ? cursorAt(last, 'after') : null,
    previous: first && start > 0 ? cursorAt(first, 'before') : null,
  };
}
