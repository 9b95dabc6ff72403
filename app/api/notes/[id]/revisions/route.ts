import { routeHandlers } from "@/lib/api/operation";
import { listRevisionsOperation } from "@/lib/api/operations/revisions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listRevisionsOperation);
