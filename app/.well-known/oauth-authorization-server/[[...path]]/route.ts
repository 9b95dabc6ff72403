import { serveOAuthMetadata } from "@/lib/auth/oauth-metadata";

export const dynamic = "force-dynamic";

// GET /.well-known/oauth-authorization-server[/api/auth] – RFC 8414 metadata of the authorization server
export const GET = (req: Request) => serveOAuthMetadata(req, "authorization-server");
