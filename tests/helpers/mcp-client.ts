import { afterAll } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** A real MCP client over Streamable HTTP to the app's /api/mcp, sending the session token as any agent would. */
async function connectMcp(appUrl: string, token: string | undefined, name = "notes-tests"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", appUrl), {
    requestInit: { headers: token === undefined ? {} : { "x-session-token": token } },
  });
  await client.connect(transport);
  return client;
}

/**
 * Connects MCP clients for one `describe` block and closes them after its
 * tests. Register it after the stack's hooks: after-hooks run in reverse, so
 * the clients close before the app stops.
 */
export function useMcpClients(appUrl: () => string): (token?: string) => Promise<Client> {
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });
  return async (token) => {
    const client = await connectMcp(appUrl(), token);
    clients.push(client);
    return client;
  };
}
