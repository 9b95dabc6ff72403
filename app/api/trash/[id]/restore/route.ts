import { routeHandlers } from "@/lib/api/operation";
import { restoreNoteOperation } from "@/lib/api/operations/trash";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(restoreNoteOperation);
