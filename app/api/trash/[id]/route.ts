import { routeHandlers } from "@/lib/api/operation";
import { deleteNoteForeverOperation } from "@/lib/api/operations/trash";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(deleteNoteForeverOperation);
