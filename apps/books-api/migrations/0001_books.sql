-- The books table, its search index, the per-block live counts, and the three seeded books.
-- Applied once, under the migration advisory lock (src/store/postgres/migrations.ts).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- seq is insertion order; pages and blocks are defined over it. title_key and author_key are
-- the application's search folding (src/store/search-fold.ts) of title and author, computed by
-- the application for every write, so both stores match alike; a match never spans the two.
CREATE TABLE books (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  title text NOT NULL,
  author text NOT NULL,
  year integer NOT NULL,
  created_at timestamptz NOT NULL,
  title_key text NOT NULL,
  author_key text NOT NULL
);

-- One trigram index over both keys answers `title_key LIKE p OR author_key LIKE p` with a
-- BitmapOr. fastupdate off: the pending list made selective searches several times slower after a
-- burst of writes; inserting straight into the index costs the writes a little instead.
CREATE INDEX books_search_keys ON books USING gin (title_key gin_trgm_ops, author_key gin_trgm_ops)
  WITH (fastupdate = off);

-- Live books per block of 1024 consecutive seq values (block = seq >> 10), split into shards so
-- concurrent writes to the newest block do not queue on one row. Every write to books changes
-- these rows in the same statement, so sum(live) is the exact total, and the running sum by
-- block finds the block holding any offset without counting rows.
CREATE TABLE book_block_counts (
  block bigint NOT NULL,
  shard smallint NOT NULL,
  live bigint NOT NULL,
  PRIMARY KEY (block, shard)
);

-- Seeded once, here: a restart never inserts them again and a deleted one stays deleted.
INSERT INTO books (id, title, author, year, created_at, title_key, author_key) VALUES
  ('3fa85f64-5717-4562-b3fc-2c963f66afa6', 'Clean Code', 'Robert C. Martin', 2008,
   date_trunc('milliseconds', now()), 'clean code', 'robert c. martin'),
  ('1a5d9e27-8b16-4d8d-96a0-84b9a91db314', 'The Pragmatic Programmer', 'David Thomas, Andrew Hunt', 2019,
   date_trunc('milliseconds', now()), 'the pragmatic programmer', 'david thomas, andrew hunt'),
  ('6f4048c8-cf4c-4f0f-92d1-84a74fe7cb0d', 'Designing Data-Intensive Applications', 'Martin Kleppmann', 2017,
   date_trunc('milliseconds', now()), 'designing data-intensive applications', 'martin kleppmann');

INSERT INTO book_block_counts (block, shard, live)
  SELECT seq >> 10, 0, count(*) FROM books GROUP BY seq >> 10;
