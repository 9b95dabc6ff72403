import { routeHandlers } from "@/lib/operations/operation";
import { editNoteOperation } from "@/lib/operations/notes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(editNoteOperation);
