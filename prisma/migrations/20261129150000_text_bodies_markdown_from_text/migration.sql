-- A note given only its text (no blocks) reads as Markdown as its text's lines,
-- a paragraph each, as the editor shows it: rendered on its first Markdown read
-- (lib/notes/body.ts) and stored. An empty body was stored for those before.
UPDATE "notes" SET "content_markdown" = NULL
WHERE "content" = '[]'::jsonb AND "content_text" <> '' AND "content_markdown" IS NOT NULL;
UPDATE "trashed_notes" SET "content_markdown" = NULL
WHERE "content" = '[]'::jsonb AND "content_text" <> '' AND "content_markdown" IS NOT NULL;
