"use client";

import { useState } from "react";
import { disconnectClientAction } from "@/lib/auth/account-actions";

type Client = { clientId: string; name: string };

/** The MCP clients the person allowed, each with Disconnect, which ends its access at once. */
export function ConnectedClients({ clients }: { clients: Client[] }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function disconnect(client: Client) {
    setBusy(client.clientId);
    setError(null);
    const result = await disconnectClientAction(client.clientId).catch(() => ({ ok: false, message: "The client could not be disconnected: check your connection and try again." }) as const);
    setBusy(null);
    if (!result.ok) setError(result.message);
  }

  return (
    <section className="card card-body" aria-labelledby="connected-clients-title">
      <h2 id="connected-clients-title">Connected clients</h2>
      {error ? (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      {clients.length === 0 ? (
        <p>No MCP client is connected. Add this server to one by its URL, and allow it here in the browser.</p>
      ) : (
        <ul aria-label="Connected clients">
          {clients.map((client) => (
            <li key={client.clientId} className="row-between">
              <span>{client.name}</span>
              <button type="button" className="btn btn-ghost btn-sm btn-danger" disabled={busy !== null} onClick={() => disconnect(client)} aria-label={`Disconnect ${client.name}`}>
                {busy === client.clientId ? "Disconnecting…" : "Disconnect"}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
