import { routeHandlers } from "@/lib/operations/operation";
import { deleteTagOperation, renameTagOperation } from "@/lib/operations/tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(renameTagOperation, deleteTagOperation);
