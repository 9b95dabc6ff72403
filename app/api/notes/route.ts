import { routeHandlers } from "@/lib/operations/operation";
import { createNoteOperation, listNotesOperation } from "@/lib/operations/notes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listNotesOperation, createNoteOperation);
