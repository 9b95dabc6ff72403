import { routeHandlers } from "@/lib/api/operation";
import { editNoteOperation } from "@/lib/api/operations/notes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(editNoteOperation);
