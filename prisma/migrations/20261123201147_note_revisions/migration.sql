-- CreateTable
CREATE TABLE "note_revisions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "note_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "author_kind" TEXT NOT NULL,
    "author_email" TEXT,
    "author_agent" TEXT,
    "title" TEXT NOT NULL,
    "tag_ids" UUID[],
    "keyframe" BOOLEAN NOT NULL,
    "depth" INTEGER NOT NULL,
    "keep_head" INTEGER NOT NULL,
    "keep_tail" INTEGER NOT NULL,
    "blocks" JSONB NOT NULL,
    "content_text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "note_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "note_revisions_user_id_idx" ON "note_revisions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "note_revisions_note_id_version_key" ON "note_revisions"("note_id", "version");

-- AddForeignKey
ALTER TABLE "note_revisions" ADD CONSTRAINT "note_revisions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Revisions are written here, by triggers, so no write path can forget one.
-- A transaction's `notes.author` setting (JSON: kind, email, agent; set by the
-- app's writeTransaction) says who wrote; without it the author is "system"
-- (an operator's SQL or script). The note's tag links are read as they are
-- when the row is written: the app writes a changed tag set before the row
-- (lib/notes/mutations.ts), and a new note's tags, which can only follow its
-- row, are copied onto its first revision after them. (Plain triggers, not
-- deferred constraint triggers: Prisma's schema engine cannot introspect a
-- database that has those.)

-- The text a revision keeps: only a text-only note's (no blocks to derive it from again).
CREATE FUNCTION note_revision_text(content jsonb, content_text text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(content) = 'array' AND jsonb_array_length(content) > 0 THEN NULL ELSE content_text END
$$;

-- How many revisions may follow a keyframe: a read applies at most this many changes.
CREATE FUNCTION note_revision_max_depth() RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT 100';

CREATE FUNCTION note_revision_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  author jsonb := coalesce(nullif(current_setting('notes.author', true), ''), '{"kind":"system"}')::jsonb;
  latest note_revisions%ROWTYPE;
  has_latest boolean;
  tags uuid[];
  n_old integer;
  n_new integer;
  head integer;
  tail integer;
  middle jsonb;
BEGIN
  SELECT coalesce(array_agg(nt.tag_id ORDER BY nt.tag_id), '{}') INTO tags FROM note_tags nt WHERE nt.note_id = NEW.id;
  SELECT * INTO latest FROM note_revisions r WHERE r.note_id = NEW.id ORDER BY r.version DESC LIMIT 1 FOR UPDATE;
  has_latest := FOUND;
  -- Already recorded: a note coming back from the trash with its history.
  IF has_latest AND latest.version >= NEW.version THEN
    RETURN NULL;
  END IF;
  -- The history continues from the state this write started from.
  IF TG_OP = 'UPDATE' AND has_latest AND latest.version = OLD.version THEN
    -- Nothing a revision shows changed (say, only a pin): the newest revision now stands for this version too.
    IF NEW.title = OLD.title AND NEW.content = OLD.content AND NEW.content_text = OLD.content_text AND tags = latest.tag_ids THEN
      UPDATE note_revisions SET version = NEW.version, updated_at = now() WHERE id = latest.id;
      RETURN NULL;
    END IF;
    IF jsonb_typeof(OLD.content) = 'array' AND jsonb_typeof(NEW.content) = 'array' THEN
      n_old := jsonb_array_length(OLD.content);
      n_new := jsonb_array_length(NEW.content);
      -- Equal leading blocks, then equal trailing blocks of what is left (each array read once).
      SELECT coalesce(min(a.i) - 1, least(n_old, n_new)) INTO head
      FROM jsonb_array_elements(OLD.content) WITH ORDINALITY a(e, i)
      JOIN jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) ON a.i = b.i
      WHERE a.e <> b.e;
      SELECT coalesce(min(n_old - a.i), least(n_old, n_new) - head) INTO tail
      FROM jsonb_array_elements(OLD.content) WITH ORDINALITY a(e, i)
      JOIN jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) ON n_old - a.i = n_new - b.i
      WHERE a.i > head AND b.i > head AND a.e <> b.e;
      -- A person's saves close together become one revision; an agent's write never joins one.
      IF author->>'kind' = 'browser' AND latest.author_kind = 'browser'
         AND latest.author_email IS NOT DISTINCT FROM author->>'email'
         AND latest.created_at > now() - interval '5 minutes' THEN
        IF NOT latest.keyframe THEN
          -- Still relative to the revision before: what both kept, with this write's blocks between.
          head := least(head, latest.keep_head);
          tail := least(tail, latest.keep_tail);
        END IF;
        SELECT coalesce(jsonb_agg(b.e ORDER BY b.i), '[]') INTO middle
        FROM jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) WHERE b.i > head AND b.i <= n_new - tail;
        UPDATE note_revisions SET
          version = NEW.version, title = NEW.title, tag_ids = tags, updated_at = now(),
          keep_head = CASE WHEN keyframe THEN 0 ELSE head END,
          keep_tail = CASE WHEN keyframe THEN 0 ELSE tail END,
          blocks = CASE WHEN keyframe THEN NEW.content ELSE middle END,
          content_text = note_revision_text(NEW.content, NEW.content_text)
        WHERE id = latest.id;
        RETURN NULL;
      END IF;
      IF latest.depth < note_revision_max_depth() AND head + tail > 0 THEN
        SELECT coalesce(jsonb_agg(b.e ORDER BY b.i), '[]') INTO middle
        FROM jsonb_array_elements(NEW.content) WITH ORDINALITY b(e, i) WHERE b.i > head AND b.i <= n_new - tail;
        INSERT INTO note_revisions (note_id, user_id, version, author_kind, author_email, author_agent, title, tag_ids, keyframe, depth, keep_head, keep_tail, blocks, content_text)
        VALUES (NEW.id, NEW.user_id, NEW.version, author->>'kind', author->>'email', author->>'agent', NEW.title, tags, false, latest.depth + 1, head, tail, middle, note_revision_text(NEW.content, NEW.content_text));
        RETURN NULL;
      END IF;
    ELSIF author->>'kind' = 'browser' AND latest.author_kind = 'browser'
          AND latest.author_email IS NOT DISTINCT FROM author->>'email'
          AND latest.created_at > now() - interval '5 minutes' AND latest.keyframe THEN
      UPDATE note_revisions SET version = NEW.version, title = NEW.title, tag_ids = tags, updated_at = now(), blocks = NEW.content,
        content_text = note_revision_text(NEW.content, NEW.content_text)
      WHERE id = latest.id;
      RETURN NULL;
    END IF;
  END IF;
  -- A new note, a broken chain, a whole rewrite or a long chain: the whole content.
  INSERT INTO note_revisions (note_id, user_id, version, author_kind, author_email, author_agent, title, tag_ids, keyframe, depth, keep_head, keep_tail, blocks, content_text)
  VALUES (NEW.id, NEW.user_id, NEW.version, author->>'kind', author->>'email', author->>'agent', NEW.title, tags, true, 0, 0, 0, NEW.content, note_revision_text(NEW.content, NEW.content_text));
  RETURN NULL;
END
$$;

CREATE TRIGGER notes_revision_insert AFTER INSERT ON notes
  FOR EACH ROW EXECUTE FUNCTION note_revision_record();
-- Only writes that make a new version: a Markdown rendering stored later is not a change.
CREATE TRIGGER notes_revision_update AFTER UPDATE ON notes
  FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version) EXECUTE FUNCTION note_revision_record();

-- A note's history lives as long as the note does, in notes or in the trash:
-- when a statement leaves the note in neither (deleted for good, purged, a new
-- note discarded untouched), its revisions go too. Moving to the trash is one
-- statement that deletes and inserts, and a restore inserts the note before it
-- removes the trashed copy, so both keep them.
CREATE FUNCTION note_revision_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM notes WHERE id = OLD.id) AND NOT EXISTS (SELECT 1 FROM trashed_notes WHERE id = OLD.id) THEN
    DELETE FROM note_revisions WHERE note_id = OLD.id AND user_id = OLD.user_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER notes_revision_forget AFTER DELETE ON notes
  FOR EACH ROW EXECUTE FUNCTION note_revision_forget();
CREATE TRIGGER trashed_notes_revision_forget AFTER DELETE ON trashed_notes
  FOR EACH ROW EXECUTE FUNCTION note_revision_forget();

-- Notes and trashed notes written before history existed start it with their current state.
INSERT INTO note_revisions (note_id, user_id, version, author_kind, title, tag_ids, keyframe, depth, keep_head, keep_tail, blocks, content_text, created_at, updated_at)
SELECT n.id, n.user_id, n.version, 'system', n.title,
       coalesce((SELECT array_agg(nt.tag_id ORDER BY nt.tag_id) FROM note_tags nt WHERE nt.note_id = n.id), '{}'),
       true, 0, 0, 0, n.content, note_revision_text(n.content, n.content_text), n.updated_at, n.updated_at
FROM notes n;
INSERT INTO note_revisions (note_id, user_id, version, author_kind, title, tag_ids, keyframe, depth, keep_head, keep_tail, blocks, content_text, created_at, updated_at)
SELECT t.id, t.user_id, t.version, 'system', t.title, t.tag_ids, true, 0, 0, 0, t.content, note_revision_text(t.content, t.content_text), t.updated_at, t.updated_at
FROM trashed_notes t;
