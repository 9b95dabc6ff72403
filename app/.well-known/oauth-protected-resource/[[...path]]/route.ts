import { serveOAuthMetadata } from "@/lib/auth/oauth-metadata";

export const dynamic = "force-dynamic";

// GET /.well-known/oauth-protected-resource[/api/mcp] – RFC 9728 metadata of /api/mcp
export const GET = (req: Request) => serveOAuthMetadata(req, "protected-resource");
