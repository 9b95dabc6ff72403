import { routeHandlers } from "@/lib/operations/operation";
import { listRevisionsOperation } from "@/lib/operations/revisions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listRevisionsOperation);
