// Paths of the API that code outside the operation table (lib/api/routes.ts)
// calls or builds on, here with no imports so that browser code may read
// them; the operations that answer them take their path from here too. The
// sign-in routes are not operations: the auth library answers them.

/** The browser's sign-up, sign-in and password reset routes (app/api/auth/[...all]). */
export const AUTH_BASE_PATH = "/api/auth";

/** GET: the API's index, every endpoint with a line about it (getApiIndexOperation). */
export const API_INDEX_PATH = "/api";

/** GET: is the service up (healthOperation). */
export const HEALTH_PATH = "/api/health";

/** POST: the MCP server (callMcpOperation), an OAuth protected resource (lib/auth/oauth.ts). */
export const MCP_PATH = "/api/mcp";

/** GET: the notes (listNotesOperation); POST: a new one. */
export const NOTES_PATH = "/api/notes";

/** GET, PATCH, DELETE: one note (getNoteOperation…). */
export const NOTE_PATH = "/api/notes/{id}";

/** POST: a new attachment (createAttachmentOperation). */
export const ATTACHMENTS_PATH = "/api/attachments";

/** GET: an attachment's bytes (getAttachmentOperation). */
export const ATTACHMENT_PATH = "/api/attachments/{id}";

/** `template` with each `{name}` in it replaced by `params[name]`, encoded. */
export function pathTo(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}
