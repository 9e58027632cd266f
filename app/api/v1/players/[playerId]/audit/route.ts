import { readRoute } from "@/lib/http/api-handler";
import { playerAuditTrailRead } from "@/lib/reads/player-audit-trail";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerAuditTrailRead);
