import { routeHandlers } from "@/lib/operations/operation";
import { getAttachmentOperation } from "@/lib/operations/attachments";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers(getAttachmentOperation);
