import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ConnectedClients } from "@/components/account/connected-clients";
import { DeleteAccount } from "@/components/account/delete-account";
import { listConnectedClients } from "@/lib/auth/oauth";
import { requireUser } from "@/lib/auth/current-user";
import { getDb } from "@/lib/db/client";
import { getAccountContents } from "@/lib/users/queries";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await requireUser("/account");
  const db = await getDb();
  const [contents, clients] = await Promise.all([getAccountContents(db, { userId: user.id }), listConnectedClients(db, user.id)]);
  if (!contents) notFound();
  return (
    <div className="page page-narrow">
      <PageHeader title="Account">Signed in as {contents.email}.</PageHeader>
      <ConnectedClients clients={clients.map(({ clientId, name }) => ({ clientId, name }))} />
      <DeleteAccount contents={contents} />
    </div>
  );
}
