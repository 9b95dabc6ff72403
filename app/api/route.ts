import { routeHandlers } from "@/lib/operations/operation";
import { getApiIndexOperation } from "@/lib/api/routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getApiIndexOperation);
