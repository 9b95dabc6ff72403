import { routeHandlers } from "@/lib/operations/operation";
import { callMcpOperation } from "@/lib/api/mcp-endpoint";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(callMcpOperation);
