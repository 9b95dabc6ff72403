import { routeHandlers } from "@/lib/operations/operation";
import { restoreNoteOperation } from "@/lib/operations/trash";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(restoreNoteOperation);
