import { listAuditLogAllPlayers } from "@/features/audit/data/list-audit-log-all-players";
import { auditLogQuerySchema } from "@/features/audit/schema/audit";
import { SCOPES } from "@/platform/auth/scopes";
import { cursorNextPage } from "@/platform/http/next-link";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/**
 * GET /audit: the audit trail across all players (admins: audit:read), on the primary: it shows every record
 * committed so far. Reading it is itself recorded.
 */
export const auditLogRead = defineRead({
  scope: SCOPES.auditRead,
  database: "primary",
  params: {},
  query: auditLogQuerySchema,
  run: async function auditLogRead({ query: { cursor, limit, ...filters }, db }) {
    const page = await listAuditLogAllPlayers({ filters, cursor, limit }, db);
    return {
      body: {
        events: page.events,
        readers: page.readers,
        limit,
        next_cursor: page.nextCursor,
        has_more: page.nextCursor !== null,
      },
      audit: { operation: "audit_trail", playerId: filters.player_id ?? null },
    };
  },
  next: (body) => cursorNextPage(body),
});
