-- AlterTable
ALTER TABLE "note_revisions" ADD COLUMN     "author_session" UUID;

-- Revisions written before this migration have no session: a person's next
-- save never joins them. The revision policy writes it (prisma/definitions/note_revisions.sql).
