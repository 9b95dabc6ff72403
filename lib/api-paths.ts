// Paths of the API that modules below the operation table (lib/api/routes.ts)
// build on, here with no imports so that browser code may read them: the
// sign-in routes (not operations: the auth library answers them) and the
// address of an attachment's bytes.

/** The browser's sign-up, sign-in and password reset routes (app/api/auth/[...all]). */
export const AUTH_BASE_PATH = "/api/auth";

/** GET: an attachment's bytes (getAttachmentOperation). */
export const ATTACHMENT_PATH = "/api/attachments/{id}";
