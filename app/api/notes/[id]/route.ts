import { routeHandlers } from "@/lib/api/operation";
import { deleteNoteOperation, getNoteOperation, updateNoteOperation } from "@/lib/api/operations/notes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getNoteOperation, updateNoteOperation, deleteNoteOperation);
