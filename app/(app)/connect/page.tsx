import Link from "next/link";
import type { Metadata } from "next";
import { CodeBlock } from "@/components/connect/code-block";
import { callMcpOperation } from "@/lib/api/mcp-endpoint";
import { getApiIndexOperation, getOpenApiDocumentOperation } from "@/lib/api/routes";
import { getPublicBaseUrl, requireUser } from "@/lib/auth/current-user";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Connect an agent" };

export default async function ConnectPage() {
  const user = await requireUser("/connect");
  const base = await getPublicBaseUrl();
  const flow = [
    `BASE=${base}`,
    `TOKEN=$(npm run -s agent -- token)   # a fresh token; it lives 5 minutes`,
    ``,
    `# Search your notes`,
    `curl -s "$BASE/api/notes?search=groceries" -H "x-session-token: $TOKEN"`,
    ``,
    `# Create one`,
    `curl -s -X POST "$BASE/api/notes" -H "x-session-token: $TOKEN" \\`,
    `  -H "content-type: application/json" \\`,
    `  -d '{"title":"Groceries","contentText":"milk, eggs, coffee"}'`,
    ``,
    `# Search again: it is there, and in your browser too`,
    `curl -s "$BASE/api/notes?search=groceries" -H "x-session-token: $TOKEN"`,
  ].join("\n");
  const reference = `curl -s "$BASE/api" -H "x-session-token: $TOKEN"`;
  const mcpEndpoint = `${base}${callMcpOperation.path}`;
  // A project's .mcp.json (Claude Code and other clients that speak Streamable HTTP with headers): the token from the environment.
  const mcpConfig = JSON.stringify({ mcpServers: { notes: { type: "http", url: mcpEndpoint, headers: { "x-session-token": "${NOTES_TOKEN}" } } } }, null, 2);

  return (
    <div className="page page-narrow">
      <PageHeader title="Connect an agent">
        Your agents read and write these same notes through the REST API or as an MCP server, with a short-lived session token instead of a
        password.
      </PageHeader>

      <div className="prose">
        <div className="callout">
          The agent’s identity account must use this account’s email, <strong>{user.email}</strong>. The API learns the email from the token and
          acts for the Notes account with that email; a token for any other email is refused.
        </div>

        <h2>Add Notes to an MCP client by its URL</h2>
        <p>
          These notes are a Model Context Protocol server (Streamable HTTP): tools to search, read, create, edit and restore notes, and each
          note as a resource. Add this URL to your client, nothing else: it opens this site, you sign in and allow it, and it stays connected
          until you disconnect it on your <Link href="/account">account page</Link>.
        </p>
        <CodeBlock label="MCP server URL" code={mcpEndpoint} />

        <p>Scripts and the REST API use a short-lived session token instead, in four steps:</p>

        <h2>1. Get a personal API key from the identity service</h2>
        <p>
          With the local identity service (what <code>npm run dev</code> starts), create an identity account for your email; it prints a
          personal API key:
        </p>
        <CodeBlock label="Create an identity account" code={`npm run identity -- user add ${user.email}`} />
        <p>With the hosted identity service, sign in to its portal with {user.email} and create a personal API key there.</p>

        <h2>2. Save the key for the agent tool</h2>
        <CodeBlock label="Save the key" code="npm run agent -- key save" />
        <p>
          It asks for the key (or reads it from a pipe), so the key never lands in your shell history. The key stays on your machine
          (readable only by you). Keep it secret: it can mint tokens for your notes.
        </p>

        <h2>3. Mint a token and call the API</h2>
        <p>
          Each call sends the token in the <code>x-session-token</code> header. A token lives five minutes; mint a new one when the API answers
          401.
        </p>
        <dl className="kv">
          <dt>API base URL</dt>
          <dd>
            <code>{`${base}${getApiIndexOperation.path}`}</code>
          </dd>
          <dt>Header</dt>
          <dd>
            <code>x-session-token: $TOKEN</code>
          </dd>
        </dl>
        <CodeBlock label="A typical agent session" code={flow} />

        <h2>4. MCP clients that send headers</h2>
        <p>
          Scripts, and clients that send headers, take the same token in the same header as the API. For a client that reads a project’s{" "}
          <code>.mcp.json</code> (Claude Code, for one), put the token in <code>NOTES_TOKEN</code> and start the client:
        </p>
        <CodeBlock label="MCP client configuration (.mcp.json)" code={mcpConfig} />
        <CodeBlock label="Give the client a token" code="export NOTES_TOKEN=$(npm run -s agent -- token)   # then start the client" />
        <p>When its calls start failing with 401, the token has expired: mint a new one and reconnect.</p>

        <h2>Reference</h2>
        <ul>
          <li>
            <a href={getOpenApiDocumentOperation.path}>
              <code>{getOpenApiDocumentOperation.path}</code>
            </a>{" "}
            is the OpenAPI 3.1 description of every endpoint; it opens without a token, for you and for client generators.{" "}
            <code>{getApiIndexOperation.path}</code> lists every endpoint with a line about it, and like every other route it needs the{" "}
            <code>x-session-token</code> header (opened directly in the browser it answers 401):
          </li>
        </ul>
        <CodeBlock label="Fetch the API index" code={reference} />

        <h2>Working side by side</h2>
        <ul>
          <li>What you write here is searchable by your agents: the editor stores its text as the note’s <code>contentText</code>.</li>
          <li>
            Notes your agents create appear in your list at once. If an agent changes a note you have open, its change appears within a few
            seconds, merged block by block while you keep typing; where you both changed the same block, yours stays and theirs waits beside
            it under <strong>changes to review</strong>. Every save is conditional on the version it merged, so nothing is overwritten unseen,
            and the note’s history keeps both writers.
          </li>
        </ul>
      </div>
    </div>
  );
}
