import { listPlayerAuditTrail } from "@/lib/audit/list-player-audit-trail";
import { SCOPES } from "@/lib/auth/scopes";
import { readRoute } from "@/lib/http/api-handler";
import { cursorNextPage, nextLinkHeaders } from "@/lib/http/next-link";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { auditListQuerySchema } from "@/lib/schemas/audit";
import { playerIdSchema } from "@/lib/schemas/common";

export const dynamic = "force-dynamic";

/** The player's audit trail (admins: audit:read). Reading it is itself recorded. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function playerAuditTrailRoute({ params, url, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const query = parseQuery(auditListQuerySchema, url.searchParams);
    const page = await listPlayerAuditTrail({ playerId, ...query });
    audit({ operation: "audit_trail", playerId });
    const body = {
      events: page.events,
      total: page.total,
      limit: query.limit,
      next_cursor: page.nextCursor,
      has_more: page.nextCursor !== null,
    };
    return jsonResponse(body, { headers: nextLinkHeaders(url, cursorNextPage(body)) });
  },
  { scope: SCOPES.auditRead },
);
