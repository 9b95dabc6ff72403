import { routeHandlers } from "@/lib/operations/operation";
import { getHealthOperation } from "@/lib/api/index-operations";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getHealthOperation);
