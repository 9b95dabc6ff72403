import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** A real MCP client over Streamable HTTP to the app's /api/mcp, sending the session token as any agent would. */
export async function connectMcp(appUrl: string, token: string | undefined, name = "notes-tests"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/api/mcp", appUrl), {
    requestInit: { headers: token === undefined ? {} : { "x-session-token": token } },
  });
  await client.connect(transport);
  return client;
}
