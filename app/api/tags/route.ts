import { routeHandlers } from "@/lib/operations/operation";
import { createTagOperation, listTagsOperation } from "@/lib/operations/tags";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(listTagsOperation, createTagOperation);
