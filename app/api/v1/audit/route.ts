import { readRoute } from "@/lib/http/api-handler";
import { auditLogRead } from "@/lib/reads/audit-log";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(auditLogRead);
