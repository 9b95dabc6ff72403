import type { Metadata } from "next";
import { TagManager } from "@/components/tags/tag-manager";
import { requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { listTagsWithNoteCounts } from "@/lib/tags/queries";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Tags" };

export default async function TagsPage() {
  const user = await requireUser("/tags");
  const tags = await listTagsWithNoteCounts(await getDb(), { userId: user.id });
  return (
    <div className="page page-narrow">
      <PageHeader title="Tags">Rename a tag and every note keeps it; delete one and it comes off its notes. Agents see the same tags.</PageHeader>
      <TagManager tags={tags} />
    </div>
  );
}
