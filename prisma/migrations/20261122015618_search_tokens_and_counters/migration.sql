-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "btree_gin";

-- DropIndex
DROP INDEX "notes_content_text_idx";

-- DropIndex
DROP INDEX "notes_title_idx";

-- AlterTable
ALTER TABLE "notes" ADD COLUMN     "search_overflow" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "search_tokens" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "tags" ADD COLUMN     "note_count" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "note_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "search_vocabulary" (
    "token" TEXT NOT NULL,

    CONSTRAINT "search_vocabulary_pkey" PRIMARY KEY ("token")
);

-- CreateIndex
CREATE INDEX "search_vocabulary_token_idx" ON "search_vocabulary" USING GIN ("token" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "notes_user_id_search_tokens_idx" ON "notes" USING GIN ("user_id" uuid_ops, "search_tokens" array_ops);

-- CreateIndex
CREATE INDEX "notes_user_id_search_overflow_idx" ON "notes"("user_id", "search_overflow");

-- Backfill the search tokens of existing notes. The app computes them in
-- lib/notes/search-tokens.ts on every write, and this is the same rule in SQL.
UPDATE "notes" SET
  "search_tokens" = ARRAY(
    SELECT DISTINCT token FROM regexp_split_to_table(lower("title" || ' ' || "content_text"), '\s+') AS token
    WHERE token <> '' AND length(token) <= 100),
  "search_overflow" = EXISTS(
    SELECT 1 FROM regexp_split_to_table("title" || ' ' || "content_text", '\s+') AS token
    WHERE length(token) > 100);

INSERT INTO "search_vocabulary" ("token")
SELECT DISTINCT unnest("search_tokens") FROM "notes" ON CONFLICT DO NOTHING;

-- Counters: notes per user and per tag, kept exact by statement-level triggers
-- in the same transaction as the write (one UPDATE per statement, not per row).
UPDATE "users" u SET "note_count" = (SELECT count(*) FROM "notes" n WHERE n."user_id" = u."id");
UPDATE "tags" t SET "note_count" = (SELECT count(*) FROM "note_tags" nt WHERE nt."tag_id" = t."id");

CREATE FUNCTION "notes_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" u SET "note_count" = u."note_count" + d.n
  FROM (SELECT "user_id", count(*) AS n FROM inserted GROUP BY "user_id") d WHERE u."id" = d."user_id";
  RETURN NULL;
END $$;

CREATE FUNCTION "notes_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "users" u SET "note_count" = u."note_count" - d.n
  FROM (SELECT "user_id", count(*) AS n FROM deleted GROUP BY "user_id") d WHERE u."id" = d."user_id";
  RETURN NULL;
END $$;

CREATE TRIGGER "notes_count_insert" AFTER INSERT ON "notes"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "notes_count_inserted"();
CREATE TRIGGER "notes_count_delete" AFTER DELETE ON "notes"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "notes_count_deleted"();

CREATE FUNCTION "note_tags_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tags" t SET "note_count" = t."note_count" + d.n
  FROM (SELECT "tag_id", count(*) AS n FROM inserted GROUP BY "tag_id") d WHERE t."id" = d."tag_id";
  RETURN NULL;
END $$;

CREATE FUNCTION "note_tags_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "tags" t SET "note_count" = t."note_count" - d.n
  FROM (SELECT "tag_id", count(*) AS n FROM deleted GROUP BY "tag_id") d WHERE t."id" = d."tag_id";
  RETURN NULL;
END $$;

CREATE TRIGGER "note_tags_count_insert" AFTER INSERT ON "note_tags"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "note_tags_count_inserted"();
CREATE TRIGGER "note_tags_count_delete" AFTER DELETE ON "note_tags"
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION "note_tags_count_deleted"();

-- Keep the notes heap narrow: texts, content and tokens live in TOAST, so the
-- scans that need only owners, timestamps and visibility (counts, list order,
-- token matches) read a few pages instead of every note's text.
ALTER TABLE "notes" SET (toast_tuple_target = 128);
ALTER TABLE "notes" ALTER COLUMN "search_tokens" SET STORAGE EXTERNAL;
