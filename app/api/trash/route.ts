import { routeHandlers } from "@/lib/api/operation";
import { emptyTrashOperation, listTrashOperation } from "@/lib/api/operations/trash";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listTrashOperation, emptyTrashOperation);
