import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { ConsentForm } from "@/components/auth/consent-form";
import { requireUser } from "@/lib/auth/current-user";
import { findClientName } from "@/lib/auth/oauth";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Allow access" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Where the OAuth provider sends a signed-in person to allow or deny an MCP client.
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const user = await requireUser();
  const clientId = typeof params.client_id === "string" ? params.client_id : null;
  const name = clientId ? await findClientName(await getDb(), clientId) : null;
  if (!clientId || name === null) notFound();
  return (
    <AuthCard title={`Allow ${name}?`} lead={<>{name} asks to read and change the notes of {user.email}. It stays connected until you disconnect it on your account page.</>}>
      <ConsentForm />
    </AuthCard>
  );
}
