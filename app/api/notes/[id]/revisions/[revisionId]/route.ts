import { routeHandlers } from "@/lib/api/operation";
import { getRevisionOperation } from "@/lib/api/operations/revisions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getRevisionOperation);
