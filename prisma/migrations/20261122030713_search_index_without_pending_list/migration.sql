-- Write search entries straight into the GIN indexes instead of a pending list.
-- A pending list is scanned in full by every search until a vacuum merges it,
-- and the embedded database runs no autovacuum: after a few thousand writes
-- each search read thousands of pending entries (a rare-term search went from
-- 7 ms to over 100 ms). Writes pay a little more; searches stay flat.
ALTER INDEX "notes_user_id_search_tokens_idx" SET (fastupdate = off);
ALTER INDEX "search_vocabulary_token_idx" SET (fastupdate = off);
