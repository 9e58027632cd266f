import { auditLogRead } from "@/features/audit/reads/audit-log";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(auditLogRead);
