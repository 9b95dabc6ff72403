-- AlterTable
ALTER TABLE "notes" ADD COLUMN     "pinned" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "trashed_notes" ADD COLUMN     "pinned" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "notes_pinned_list_idx" ON "notes"("user_id", "updated_at" DESC, "id" DESC) WHERE (pinned);
