import type { ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/auth/scopes";
import {
  AUDIT_OPERATIONS,
  auditListQuerySchema,
  auditListResponseSchema,
  auditLogQuerySchema,
  auditLogResponseSchema,
} from "@/lib/schemas/audit";
import { commonErrors, ok, playerPath, problem, requires, sessionHeader } from "../operation-parts.ts";

/** The audit trail: one player's and everyone's. */
export const auditOperations = {
  "/players/{playerId}/audit": {
    get: {
      operationId: "listPlayerAuditEvents",
      tags: ["Audit"],
      summary: "Page through a player's audit trail",
      description: `Admins only (\`audit:read\`). Who read this player's data: reads naming the player (operations ${AUDIT_OPERATIONS.map((o) => `\`${o}\``).join(", ")}) and searches whose results contained the player. Newest first, cursor paging. Reading the trail is itself recorded.`,
      security: requires(SCOPES.auditRead),
      requestParams: { path: playerPath, query: auditListQuerySchema, header: sessionHeader },
      responses: {
        "200": ok("A page of audit events.", auditListResponseSchema),
        "400": problem("Invalid operation, cursor or limit, or an unknown parameter."),
        "404": problem("No player with this id."),
        ...commonErrors,
      },
    },
  },
  "/audit": {
    get: {
      operationId: "listAuditLog",
      tags: ["Audit"],
      summary: "Page through the audit trail across all players",
      description:
        "Admins only (`audit:read`). Every recorded read, newest first, optionally narrowed by user (`subject`), player (named in the path or returned by a search), operation and period. Cursor paging: keep the filters and pass `next_cursor` as `cursor`. Reading it is itself recorded (`audit_trail`).",
      security: requires(SCOPES.auditRead),
      requestParams: { query: auditLogQuerySchema, header: sessionHeader },
      responses: {
        "200": ok("A page of audit events.", auditLogResponseSchema),
        "400": problem(
          "Invalid subject, player_id, operation, from_date, to_date (or from_date after to_date), cursor or limit, or an unknown parameter.",
        ),
        ...commonErrors,
      },
    },
  },
} satisfies ZodOpenApiPathsObject;
