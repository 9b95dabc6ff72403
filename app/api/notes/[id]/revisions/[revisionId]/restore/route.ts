import { routeHandlers } from "@/lib/api/operation";
import { restoreRevisionOperation } from "@/lib/api/operations/revisions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(restoreRevisionOperation);
