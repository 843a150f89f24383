-- The live books of the compacted block counts (shard 0) per group of 32 blocks (grp = block >> 5,
-- GROUP_BITS in src/store/postgres/postgres-book-store.ts), so that the exact total reads about one
-- row per group instead of one per block: the total is the sum of these rows plus the block rows of
-- shards other than 0, which are few (the newest blocks' writers, and deletes not yet compacted).
-- At a million books, 31 group rows and the shard rows, against about a thousand block rows.
--
-- A trigger keeps them, and only for block rows of shard 0: creates and deletes write the shard of
-- their session, which is never 0 (sessionShard() in postgres-book-store.ts), so the trigger does
-- not fire for them and a write costs what it did; compactCounts() moves shard rows into shard 0
-- and so into the groups, in its one statement. Every writer that touches shard 0 is counted alike:
-- replicas of the previous version still serving during a rolling update (whose compaction, and
-- the rare session whose pid is a multiple of 32749, write shard 0), and tools that rebuild counts.

CREATE TABLE book_group_counts (
  grp bigint PRIMARY KEY,
  live bigint NOT NULL
);

-- The shard rows, for the total and the far page's first step. Not covering `live`: a write changes
-- live, and an indexed live would make every write of a count row update the index.
CREATE INDEX book_block_counts_shards ON book_block_counts (block) WHERE shard <> 0;

-- Writers of the previous version wait here until this migration commits, so no shard-0 change is
-- missed between the copy below and the trigger.
LOCK TABLE book_block_counts IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO book_group_counts (grp, live)
  SELECT block >> 5, sum(live) FROM book_block_counts WHERE shard = 0 GROUP BY 1;

-- AFTER, not BEFORE: a BEFORE INSERT trigger also fires for an INSERT ... ON CONFLICT that turns
-- into an update, which would count that write twice.
CREATE FUNCTION book_group_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.shard = 0 THEN
    INSERT INTO book_group_counts (grp, live) VALUES (OLD.block >> 5, -OLD.live)
    ON CONFLICT (grp) DO UPDATE SET live = book_group_counts.live + excluded.live;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.shard = 0 THEN
    INSERT INTO book_group_counts (grp, live) VALUES (NEW.block >> 5, NEW.live)
    ON CONFLICT (grp) DO UPDATE SET live = book_group_counts.live + excluded.live;
  END IF;
  RETURN NULL;
END
$$;

-- The WHEN conditions keep the trigger from firing at all for the shard rows that writes change.
CREATE TRIGGER book_group_counts_insert AFTER INSERT ON book_block_counts
  FOR EACH ROW WHEN (NEW.shard = 0) EXECUTE FUNCTION book_group_counts_follow();
CREATE TRIGGER book_group_counts_update AFTER UPDATE ON book_block_counts
  FOR EACH ROW WHEN (OLD.shard = 0 OR NEW.shard = 0) EXECUTE FUNCTION book_group_counts_follow();
CREATE TRIGGER book_group_counts_delete AFTER DELETE ON book_block_counts
  FOR EACH ROW WHEN (OLD.shard = 0) EXECUTE FUNCTION book_group_counts_follow();
