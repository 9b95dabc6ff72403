import "server-only";
import { oauthProviderAuthServerMetadata } from "@better-auth/oauth-provider";
import { getAuth } from "@/lib/auth/auth";
import { mcpResource, NOTES_SCOPE } from "@/lib/auth/oauth";
import { appOrigin } from "@/lib/auth/origin";
import { ConfigError } from "@/lib/env";
import { AppError, serverConfigError, toErrorResponse } from "@/lib/errors";
import { AUTH_BASE_PATH, MCP_PATH } from "@/lib/http/paths";

// Each document answers at its well-known path and at the path-suffixed forms
// clients try: the resource's path (/api/mcp) for RFC 9728, the issuer's
// (/api/auth) for RFC 8414.
const SUFFIXES = { "protected-resource": ["", MCP_PATH], "authorization-server": ["", AUTH_BASE_PATH] } as const;

/**
 * The OAuth discovery documents of /api/mcp: the authorization server's
 * (RFC 8414) from the auth library's OAuth provider, and the protected
 * resource's (RFC 9728) naming it, outside /api/auth where clients look for
 * them. Any other path below them is a 404.
 */
export async function serveOAuthMetadata(req: Request, document: keyof typeof SUFFIXES): Promise<Response> {
  try {
    const suffix = new URL(req.url).pathname.replace(`/.well-known/oauth-${document}`, "").replace(/\/+$/, "");
    if (!(SUFFIXES[document] as readonly string[]).includes(suffix)) throw new AppError("NOT_FOUND");
    const auth = await getAuth();
    if (document === "authorization-server") return await oauthProviderAuthServerMetadata(auth)(req);
    const server = await auth.api.getOAuthServerConfig();
    return Response.json(
      {
        resource: mcpResource(appOrigin()),
        resource_name: "Notes",
        authorization_servers: [server.issuer],
        bearer_methods_supported: ["header"],
        scopes_supported: [NOTES_SCOPE],
      },
      { headers: { "Cache-Control": "public, max-age=3600" } },
    );
  } catch (err) {
    return toErrorResponse(err instanceof ConfigError ? serverConfigError(err) : err, req);
  }
}
