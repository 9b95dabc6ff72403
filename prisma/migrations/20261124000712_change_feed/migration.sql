-- AlterTable
ALTER TABLE "users" ADD COLUMN     "change_seq" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "changes" (
    "user_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL,
    "entity" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "version" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "changes_pkey" PRIMARY KEY ("user_id","seq")
);

-- AddForeignKey
ALTER TABLE "changes" ADD CONSTRAINT "changes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The account's change feed is written here, by triggers, so no write path
-- can leave a change out: REST, MCP, the browser, a restore, plain SQL.
--
-- A change's number is the next of the account's users.change_seq. Taking it
-- updates the account's users row, which holds that row's lock (FOR NO KEY
-- UPDATE, the lock every write to the account takes first, see
-- lib/db/transaction.ts) until the transaction ends: a second writer waits for
-- the first to commit or roll back before it numbers its own change. So the
-- numbers commit in order, with no gap (a rollback takes its numbers back),
-- and a reader that has seen change n and asks for what follows never misses
-- one committed later. When the account's row is gone (the account being
-- erased), nothing is recorded: its changes go with it.
CREATE FUNCTION change_record(c_user uuid, c_entity text, c_action text, c_id uuid, c_version integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  next_seq bigint;
BEGIN
  UPDATE users SET change_seq = change_seq + 1 WHERE id = c_user RETURNING change_seq INTO next_seq;
  IF next_seq IS NOT NULL THEN
    INSERT INTO changes (user_id, seq, entity, action, entity_id, version) VALUES (c_user, next_seq, c_entity, c_action, c_id, c_version);
  END IF;
END
$$;

-- A note: created, or restored (a restore inserts the note while its trashed
-- copy is still there); updated (a new version); deleted (moved to the trash:
-- one statement deletes it and inserts the trashed copy) or purged (gone for
-- good: a new note discarded untouched).
CREATE FUNCTION notes_change_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM change_record(NEW.user_id, 'note', CASE WHEN EXISTS (SELECT 1 FROM trashed_notes WHERE id = NEW.id) THEN 'restored' ELSE 'created' END, NEW.id, NEW.version);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM change_record(NEW.user_id, 'note', 'updated', NEW.id, NEW.version);
  ELSE
    PERFORM change_record(OLD.user_id, 'note', CASE WHEN EXISTS (SELECT 1 FROM trashed_notes WHERE id = OLD.id) THEN 'deleted' ELSE 'purged' END, OLD.id, NULL);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER notes_change_insert AFTER INSERT ON notes
  FOR EACH ROW EXECUTE FUNCTION notes_change_record();
-- Only writes that make a new version: a Markdown rendering stored later is not a change.
CREATE TRIGGER notes_change_update AFTER UPDATE ON notes
  FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION notes_change_record();
CREATE TRIGGER notes_change_delete AFTER DELETE ON notes
  FOR EACH ROW EXECUTE FUNCTION notes_change_record();

-- A trashed note removed for good (deleted from the trash, emptied, expired);
-- not when a restore removes it (the note is back in notes).
CREATE FUNCTION trashed_notes_change_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM notes WHERE id = OLD.id) THEN
    PERFORM change_record(OLD.user_id, 'note', 'purged', OLD.id, NULL);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER trashed_notes_change_delete AFTER DELETE ON trashed_notes
  FOR EACH ROW EXECUTE FUNCTION trashed_notes_change_record();

-- A tag: created, renamed, deleted (its links to notes go with it; the notes' versions stay).
CREATE FUNCTION tags_change_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM change_record(OLD.user_id, 'tag', 'deleted', OLD.id, NULL);
  ELSE
    PERFORM change_record(NEW.user_id, 'tag', CASE TG_OP WHEN 'INSERT' THEN 'created' ELSE 'updated' END, NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER tags_change_insert AFTER INSERT ON tags
  FOR EACH ROW EXECUTE FUNCTION tags_change_record();
-- A rename; not the note counter the tag links keep.
CREATE TRIGGER tags_change_update AFTER UPDATE ON tags
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION tags_change_record();
CREATE TRIGGER tags_change_delete AFTER DELETE ON tags
  FOR EACH ROW EXECUTE FUNCTION tags_change_record();
