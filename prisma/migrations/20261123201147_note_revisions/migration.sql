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

-- The revision policy, note_revision_record, is defined in
-- prisma/definitions/note_revisions.sql, which is applied after the
-- migrations; here it only has to exist for the triggers below.
CREATE FUNCTION note_revision_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
