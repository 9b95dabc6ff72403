/**
 * Who makes a write, as its revision records it: an agent through the REST
 * API or MCP (with the verified email and, when the identity service supplies
 * one, the agent's name), or a person in the browser. Operators' scripts write
 * without one and are recorded as "system".
 */
export type RevisionAuthor = { kind: "api" | "mcp" | "browser"; email: string; agent?: string };

/** Author kinds that are an agent's, as opposed to a person's or an operator's. */
export const AGENT_AUTHOR_KINDS: ReadonlySet<string> = new Set(["api", "mcp"]);

/** The transaction setting the revision triggers read (see the note_revisions migration). */
export const AUTHOR_SETTING = "notes.author";

/** The setting's value: JSON the triggers read with ->>. */
export function authorSettingValue(author: RevisionAuthor): string {
  return JSON.stringify({ kind: author.kind, email: author.email, ...(author.agent ? { agent: author.agent } : {}) });
}

/** An agent's write, through the REST API or MCP, as withAuth verified it. */
export function agentAuthor(kind: "api" | "mcp", user: { email: string; agent?: string }): RevisionAuthor {
  return { kind, email: user.email, ...(user.agent ? { agent: user.agent } : {}) };
}

/** A person's write in the browser. */
export function personAuthor(user: { email: string }): RevisionAuthor {
  return { kind: "browser", email: user.email };
}
