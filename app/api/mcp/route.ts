import { answerOptions, methodNotAllowed } from "@/lib/api/method-not-allowed";
import { withAuth } from "@/lib/auth/with-auth";
import { handleMcpRequest } from "@/lib/mcp/server";

export const dynamic = "force-dynamic";

// POST /api/mcp – Model Context Protocol over Streamable HTTP (stateless): the notes and tags tools, as the same user
export const POST = withAuth(async ({ req, user, db }) => handleMcpRequest(req, { user, db }));

// Stateless: no server-initiated stream to open with GET, no session to end with DELETE.
export const GET = methodNotAllowed("/api/mcp");
export const DELETE = methodNotAllowed("/api/mcp");
export const PUT = methodNotAllowed("/api/mcp");
export const PATCH = methodNotAllowed("/api/mcp");
export const OPTIONS = answerOptions("/api/mcp");
