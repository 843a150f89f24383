import type { ReservedSql } from 'postgres';
import { SEARCH_FOLD_VERSION, searchFold } from '../search-fold.js';

/** Rows read and rewritten per statement: each statement commits alone, so no transaction grows huge. */
const REFOLD_BATCH_SIZE = 5_000;

export interface RefoldOptions {
  /** Rows per statement (tests make it small to cross batch boundaries). */
  batchSize?: number;
}

/** What refoldSearchKeys found and did. */
export type RefoldOutcome =
  /** The database's keys were folded by this version: nothing was read or written. */
  | { status: 'current'; version: number }
  /** A newer server re-folded them (an update is rolling out, or this version was rolled back to): left alone. */
  | { status: 'newer'; recorded: number; version: number }
  /** Every row was read, the keys that differ were rewritten, and this version is now recorded. */
  | { status: 'refolded'; from: number; to: number; rows: number; rewritten: number; ms: number };

interface KeyedRow {
  seq: string;
  title: string;
  author: string;
  title_key: string;
  author_key: string;
}

/**
 * Brings every book's `title_key` and `author_key` to this code's searchFold when the database
 * records an older SEARCH_FOLD_VERSION (table `search_fold`, migrations/0003), then records this
 * version. The caller holds the migration advisory lock on `sql`, one reserved connection, so
 * replicas starting together re-fold once: the others wait and find the version current.
 *
 * Rows are walked by `seq` in batches, each batch one statement that commits by itself, and only
 * keys that differ are written. Writers need no pause: a server of this version writes new-fold
 * keys anyway, and a batch rewrites a key only if its title (or author) is still the one it read
 * (PostgreSQL re-checks the condition on a row changed meanwhile), so a concurrent PATCH is never
 * undone, and the other key of a row renamed meanwhile is still re-folded. Interrupted, it starts over at the next start and skips the rows already right.
 *
 * Rolling updates: a replica of the previous version still serving meanwhile folds queries and
 * new keys the old way, so for the few characters whose folding changed its searches and its
 * writes disagree with the new keys until it is replaced. The version only moves forward: an
 * older server never re-folds a newer database back (see docs/postgresql.md).
 */
export async function refoldSearchKeys(sql: ReservedSql, options: RefoldOptions = {}): Promise<RefoldOutcome> {
  const version = SEARCH_FOLD_VERSION;
  const [row] = await sql<{ version: number }[]>`select version from search_fold`;
  const recorded = row?.version ?? 0; // no row: nothing is known about the keys, so re-fold them
  if (recorded === version) return { status: 'current', version };
  if (recorded > version) return { status: 'newer', recorded, version };

  // A batch rewriting 5,000 rows and their trigram index entries took about a second here, more
  // than a short DATABASE_STATEMENT_TIMEOUT_MS allows: lifted for this one session meanwhile.
  await sql`set statement_timeout = 0`;
  try {
    return await refold(sql, recorded, version, options.batchSize ?? REFOLD_BATCH_SIZE);
  } finally {
    await sql`reset statement_timeout`.catch(() => undefined); // back to the pool's setting
  }
}

async function refold(sql: ReservedSql, recorded: number, version: number, batchSize: number): Promise<RefoldOutcome> {
  const started = performance.now();
  let rows = 0;
  let rewritten = 0;
  for (let after = '0'; ;) {
    // Ordered by books.seq, the number: a bare "seq" would be the text alias, where '10' < '9'.
    const batch = await sql<KeyedRow[]>`
      select seq::text as seq, title, author, title_key, author_key from books
      where seq > ${after}::int8 order by books.seq limit ${batchSize}`;
    const last = batch.at(-1);
    if (!last) break;
    rows += batch.length;
    after = last.seq;
    const stale: KeyedRow[] = [];
    for (const book of batch) {
      const refolded = { ...book, title_key: searchFold(book.title), author_key: searchFold(book.author) };
      if (refolded.title_key !== book.title_key || refolded.author_key !== book.author_key) stale.push(refolded);
    }
    if (stale.length === 0) continue;
    const updated = await sql`
      update books b set
        title_key = case when b.title = v.title then v.title_key else b.title_key end,
        author_key = case when b.author = v.author then v.author_key else b.author_key end
      from unnest(
        ${sql.array(stale.map((book) => book.seq))}::int8[],
        ${sql.array(stale.map((book) => book.title))}::text[],
        ${sql.array(stale.map((book) => book.author))}::text[],
        ${sql.array(stale.map((book) => book.title_key))}::text[],
        ${sql.array(stale.map((book) => book.author_key))}::text[]
      ) as v(seq, title, author, title_key, author_key)
      where b.seq = v.seq and (b.title = v.title or b.author = v.author)`;
    rewritten += updated.count;
  }
  await sql`
    insert into search_fold (one_row, version, refolded_at) values (true, ${version}, now())
    on conflict (one_row) do update set version = excluded.version, refolded_at = excluded.refolded_at`;
  return {
    status: 'refolded',
    from: recorded,
    to: version,
    rows,
    rewritten,
    ms: Math.round(performance.now() - started),
  };
}

/** One line for people: the log of a server at start, the output of `npm run db:migrate`. */
export function describeRefold(outcome: RefoldOutcome): string | undefined {
  switch (outcome.status) {
    case 'current':
      return undefined;
    case 'newer':
      return (
        `Search keys are folded by version ${outcome.recorded}, newer than this server's ${outcome.version}: ` +
        'left as they are (searches of text whose folding changed may miss until every server runs the newer version)'
      );
    case 'refolded':
      return (
        `Re-folded search keys from version ${outcome.from} to ${outcome.to}: ` +
        `${outcome.rows} rows read, ${outcome.rewritten} rewritten in ${outcome.ms} ms`
      );
  }
}
