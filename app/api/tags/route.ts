import { routeHandlers } from "@/lib/api/operation";
import { createTagOperation, listTagsOperation } from "@/lib/api/operations/tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listTagsOperation, createTagOperation);
