import { routeHandlers } from "@/lib/operations/operation";
import { getMeOperation } from "@/lib/api/index-operations";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getMeOperation);
