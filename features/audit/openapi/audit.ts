import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  AUDIT_OPERATIONS,
  auditListQuerySchema,
  auditListResponseSchema,
  auditLogQuerySchema,
  auditLogResponseSchema,
} from "@/features/audit/schema/audit";
import { SCOPES } from "@/platform/auth/scopes";
import {
  ok,
  paged,
  playerPath,
  readHeaders,
  readResponses,
  requires,
} from "@/platform/openapi/operation-parts";

/* The audit trail: one player's and everyone's. The keys' order is their order in the document. */

const listPlayerAuditEvents = {
  operationId: "listPlayerAuditEvents",
  tags: ["Audit"],
  summary: "Page through a player's audit trail",
  description: `Admins only (\`audit:read\`). Who read this player's data: reads naming the player (operations ${AUDIT_OPERATIONS.map((o) => `\`${o}\``).join(", ")}) and searches whose results contained the player. Newest first, cursor paging. Reading the trail is itself recorded.`,
  security: requires(SCOPES.auditRead),
  requestParams: { path: playerPath, query: auditListQuerySchema, header: readHeaders },
  responses: readResponses(
    paged(
      ok(
        "A page of audit events. `Link` names the next page (`cursor` = `next_cursor`).",
        auditListResponseSchema,
      ),
    ),
    "Invalid operation, cursor or limit, or an unknown parameter.",
    { player: true },
  ),
} satisfies ZodOpenApiOperationObject;

const listAuditLog = {
  operationId: "listAuditLog",
  tags: ["Audit"],
  summary: "Page through the audit trail across all players",
  description:
    "Admins only (`audit:read`). Every recorded read, newest first, optionally narrowed by user (`subject`: the id exactly; `user`: the id, or the display name or its beginning), player (named in the path or returned by a search), operation and period. With `player_id` the answer also says who read that player's data, how often and when last (`readers`). Cursor paging: keep the filters and pass `next_cursor` as `cursor`. Reading it is itself recorded (`audit_trail`); the back office hides those reads unless asked (`operation` without `audit_trail`).",
  security: requires(SCOPES.auditRead),
  requestParams: { query: auditLogQuerySchema, header: readHeaders },
  responses: readResponses(
    paged(
      ok(
        "A page of audit events. `Link` names the next page (`cursor` = `next_cursor`).",
        auditLogResponseSchema,
      ),
    ),
    "Invalid subject, user, player_id, operation, from_date, to_date (or from_date after to_date), cursor or limit, or an unknown parameter.",
  ),
} satisfies ZodOpenApiOperationObject;

export const auditPaths = {
  "/players/{playerId}/audit": { get: listPlayerAuditEvents },
  "/audit": { get: listAuditLog },
} satisfies ZodOpenApiPathsObject;
