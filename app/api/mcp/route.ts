import { routeHandlers } from "@/lib/api/operation";
import { callMcpOperation } from "@/lib/api/operations/mcp";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(callMcpOperation);
