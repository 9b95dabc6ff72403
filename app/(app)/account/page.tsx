import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DeleteAccount } from "@/components/account/delete-account";
import { requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { getAccountContents } from "@/lib/users/queries";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireUser("/account");
  const contents = await getAccountContents(await getDb(), { userId: user.id });
  if (!contents) notFound();
  return (
    <div className="page page-narrow">
      <PageHeader title="Account">Signed in as {contents.email}.</PageHeader>
      <DeleteAccount contents={contents} />
    </div>
  );
}
