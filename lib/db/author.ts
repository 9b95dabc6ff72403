/**
 * Who makes a write, as its revision records it: an agent through the REST
 * API or MCP (with the verified email and, when the identity service supplies
 * one, the agent's name), or a person in the browser. Operators' scripts write
 * without one and are recorded as "system".
 */
export type RevisionAuthor = {
  kind: "api" | "mcp" | "browser";
  email: string;
  agent?: string;
  /**
   * A person's save from the editor: the editor session it comes from (one
   * visit to the note in one tab), a UUID. Only saves of one session join one
   * revision; a write without one (making a note, a tag deleted) never joins.
   */
  session?: string;
};

/** Author kinds that are an agent's, as opposed to a person's or an operator's. */
export const AGENT_AUTHOR_KINDS: ReadonlySet<string> = new Set(["api", "mcp"]);

/**
 * The transaction setting the revision trigger reads. When a write gets a
 * revision of its own, and when it joins the newest one, is decided there, in
 * one place: note_revision_record, the revision policy in
 * prisma/definitions/note_revisions.sql.
 */
export const AUTHOR_SETTING = "notes.author";

/**
 * The setting's value: JSON the trigger reads with ->>. `restoredFrom` marks
 * the write as a restore of that version, which is always a revision of its
 * own and never joined by a later save. Undefined when there is nothing to
 * say: the trigger then records an operator's write ("system").
 */
export function authorSettingValue(author: RevisionAuthor | undefined, restoredFrom?: number): string | undefined {
  if (author === undefined && restoredFrom === undefined) return undefined;
  return JSON.stringify({
    kind: author?.kind ?? "system",
    ...(author ? { email: author.email } : {}),
    ...(author?.agent ? { agent: author.agent } : {}),
    ...(author?.session ? { session: author.session } : {}),
    ...(restoredFrom === undefined ? {} : { restoredFrom }),
  });
}

/** An agent's write, through the REST API or MCP, as withAuth verified it. */
export function agentAuthor(kind: "api" | "mcp", user: { email: string; agent?: string }): RevisionAuthor {
  return { kind, email: user.email, ...(user.agent ? { agent: user.agent } : {}) };
}

/** A person's write in the browser; a save from the editor names its editor session. */
export function personAuthor(user: { email: string }, session?: string): RevisionAuthor {
  return { kind: "browser", email: user.email, ...(session ? { session } : {}) };
}
