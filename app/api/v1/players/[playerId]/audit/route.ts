import { playerAuditTrailRead } from "@/features/audit/reads/player-audit-trail";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerAuditTrailRead);
