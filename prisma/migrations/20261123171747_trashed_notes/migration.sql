-- CreateTable
CREATE TABLE "trashed_notes" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "content_text" TEXT NOT NULL,
    "content_markdown" TEXT,
    "version" INTEGER NOT NULL,
    "tag_ids" UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trashed_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "trashed_notes_user_id_deleted_at_id_idx" ON "trashed_notes"("user_id", "deleted_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "trashed_notes_deleted_at_idx" ON "trashed_notes"("deleted_at");

-- AddForeignKey
ALTER TABLE "trashed_notes" ADD CONSTRAINT "trashed_notes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
