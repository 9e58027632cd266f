import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { SCOPES } from "@/lib/auth/scopes";
import { jsonResponse, methodNotAllowedHandler, withApi } from "@/lib/http/api-handler";
import { notFound } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { AUDIT_LIST_ARRAY_PARAMS, auditListQuerySchema } from "@/lib/schemas/audit";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

/** The player's audit trail (admins: audit:read). Reading it is itself recorded. */
export const GET = withApi<{ playerId: string }>(
  async ({ params, url, audit }) => {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const query = parseQuery(auditListQuerySchema, url.searchParams, AUDIT_LIST_ARRAY_PARAMS);
    const page = await listAuditEvents(playerId, query);
    if (!page) throw notFound(`No player with id '${playerId}'.`);
    audit({ operation: "audit_trail", playerId });
    return jsonResponse({
      events: page.events,
      total: page.total,
      limit: query.limit,
      next_cursor: page.nextCursor,
      has_more: page.nextCursor !== null,
    });
  },
  { scope: SCOPES.auditRead },
);

export const POST = methodNotAllowedHandler();
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
