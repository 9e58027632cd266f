import { listPlayerAuditTrail } from "@/features/audit/data/list-player-audit-trail";
import { auditListQuerySchema } from "@/features/audit/schema/audit";
import { SCOPES } from "@/platform/auth/scopes";
import { cursorNextPage } from "@/platform/http/next-link";
import { playerIdSchema } from "@/platform/schemas/common";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/**
 * GET /players/{playerId}/audit: the player's audit trail (admins: audit:read), on the primary: it shows every
 * record committed so far. Reading it is itself recorded.
 */
export const playerAuditTrailRead = defineRead({
  scope: SCOPES.auditRead,
  database: "primary",
  params: { playerId: playerIdSchema },
  query: auditListQuerySchema,
  run: async function playerAuditTrailRead({ params: { playerId }, query, db }) {
    const page = await listPlayerAuditTrail({ playerId, ...query }, db);
    return {
      body: {
        events: page.events,
        total: page.total,
        limit: query.limit,
        next_cursor: page.nextCursor,
        has_more: page.nextCursor !== null,
      },
      audit: { operation: "audit_trail", playerId },
    };
  },
  next: (body) => cursorNextPage(body),
});
