import { routeHandlers } from "@/lib/api/operation";
import { deleteTagOperation, renameTagOperation } from "@/lib/api/operations/tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(renameTagOperation, deleteTagOperation);
