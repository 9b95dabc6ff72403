import { routeHandlers } from "@/lib/operations/operation";
import { emptyTrashOperation, listTrashOperation } from "@/lib/operations/trash";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listTrashOperation, emptyTrashOperation);
