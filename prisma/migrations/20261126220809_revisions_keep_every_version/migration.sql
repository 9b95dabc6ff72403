-- AlterTable
ALTER TABLE "note_revisions" ADD COLUMN     "pinned" BOOLEAN,
ADD COLUMN     "restored_from" INTEGER,
ADD COLUMN     "text_keep_head" INTEGER,
ADD COLUMN     "text_keep_tail" INTEGER,
ALTER COLUMN "blocks" DROP NOT NULL;

-- Revisions written before this migration keep their meaning: text_keep_head
-- is null there, so content_text is the whole text (or null: derived from the
-- blocks), blocks is never null, and pinned and restored_from are unknown.

-- The revision policy writes them (prisma/definitions/note_revisions.sql).

-- Revisions no longer decide from the blocks whether to keep the text.
DROP FUNCTION note_revision_text(jsonb, text);
