import { routeHandlers } from "@/lib/operations/operation";
import { getRevisionOperation } from "@/lib/operations/revisions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getRevisionOperation);
