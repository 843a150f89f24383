// The fixed, read-only request mix of the background traffic generator (see the contract's
// "Traffic generator"). Nothing here may write: the generator must never change the store.

export interface TrafficRequest {
  readonly method: 'GET' | 'HEAD';
  /** Path and query, relative to the server's own origin. */
  readonly path: string;
}

/** A uniform random number in [0, 1), injectable so tests can pin choices. */
type RandomSource = () => number;

/** Terms that hit the seeded books, miss them, or match only authors, so search shows a spread. */
export const SEARCH_TERMS: readonly string[] = [
  'clean',
  'code',
  'pragmatic',
  'data',
  'martin',
  'kleppmann',
  'thomas',
  'design',
  'rust',
  'kubernetes',
];

function randomInt(random: RandomSource, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: RandomSource, items: readonly T[]): T {
  const item = items[Math.min(items.length - 1, Math.floor(random() * items.length))];
  if (item === undefined) throw new Error('cannot pick from an empty list');
  return item;
}

const REQUEST_KINDS: readonly ((random: RandomSource) => TrafficRequest)[] = [
  () => ({ method: 'GET', path: '/' }),
  () => ({ method: 'GET', path: '/api/ps' }),
  (random) => ({
    method: 'GET',
    path: `/api/v1/books?skip=${randomInt(random, 0, 5)}&limit=${randomInt(random, 1, 20)}`,
  }),
  (random) => ({
    method: 'GET',
    path: `/api/v1/books/search?q=${encodeURIComponent(pick(random, SEARCH_TERMS))}&limit=${randomInt(random, 1, 20)}`,
  }),
  () => ({ method: 'HEAD', path: '/api/status' }),
  // Sent without following the 307, so each tick is exactly one request in the log.
  () => ({ method: 'GET', path: '/api/redirect' }),
];

/** Every kind of request in the mix, each with equal probability. */
export function pickTrafficRequest(random: RandomSource = Math.random): TrafficRequest {
  return pick(random, REQUEST_KINDS)(random);
}
