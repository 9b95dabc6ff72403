import { routeHandlers } from "@/lib/api/operation";
import { listChangesOperation } from "@/lib/api/operations/changes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listChangesOperation);
