import { listAuditLogAllPlayers } from "@/lib/audit/list-audit-log-all-players";
import { SCOPES } from "@/lib/auth/scopes";
import { readRoute } from "@/lib/http/api-handler";
import { cursorNextPage, nextLinkHeaders } from "@/lib/http/next-link";
import { parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { auditLogQuerySchema } from "@/lib/schemas/audit";

export const dynamic = "force-dynamic";

/** The audit trail across all players (admins: audit:read). Reading it is itself recorded. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function auditLogRoute({ url, audit }) {
    const { cursor, limit, ...filters } = parseQuery(auditLogQuerySchema, url.searchParams);
    const page = await listAuditLogAllPlayers({ filters, cursor, limit });
    audit({ operation: "audit_trail", playerId: filters.player_id ?? null });
    const body = {
      events: page.events,
      readers: page.readers,
      limit,
      next_cursor: page.nextCursor,
      has_more: page.nextCursor !== null,
    };
    return jsonResponse(body, { headers: nextLinkHeaders(url, cursorNextPage(body)) });
  },
  { scope: SCOPES.auditRead },
);
