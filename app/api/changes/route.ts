import { routeHandlers } from "@/lib/operations/operation";
import { listChangesOperation } from "@/lib/operations/changes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listChangesOperation);
