import { routeHandlers } from "@/lib/operations/operation";
import { deleteNoteOperation, getNoteOperation, updateNoteOperation } from "@/lib/operations/notes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getNoteOperation, updateNoteOperation, deleteNoteOperation);
