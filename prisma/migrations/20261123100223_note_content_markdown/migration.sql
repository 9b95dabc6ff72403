-- A note's body as Markdown, rendered at write time so that reading a note as
-- Markdown is a read, not a conversion. Existing notes keep NULL and are
-- rendered on their first Markdown read.
ALTER TABLE "notes" ADD COLUMN     "content_markdown" TEXT;
