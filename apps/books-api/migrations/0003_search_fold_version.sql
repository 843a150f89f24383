-- Which version of the application's search folding (SEARCH_FOLD_VERSION in
-- src/store/search-fold.ts) the title_key and author_key of every book were computed with. One row.
-- A server whose version is newer re-folds every row at start, under the migration advisory lock,
-- then records its version here (src/store/postgres/refold-search-keys.ts).
CREATE TABLE search_fold (
  one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),
  version integer NOT NULL,
  refolded_at timestamptz NOT NULL DEFAULT now()
);

-- Every key written before this migration came from version 1 (Unicode 16.0.0 full case folding),
-- the only folding the PostgreSQL store has used before (the keys seeded by 0001 are plain ASCII).
INSERT INTO search_fold (version) VALUES (1);
