import { routeHandlers } from "@/lib/api/operation";
import { getAttachmentOperation } from "@/lib/api/operations/attachments";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getAttachmentOperation);
