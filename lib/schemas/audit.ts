import { z } from "zod";
import { dateTimeSchema, limitParam } from "./common.ts";

export const AUDIT_OPERATIONS = [
  "profile",
  "transactions",
  "search",
  "export",
  "transaction_facets",
  "monthly_activity",
  "audit_trail",
] as const;
export const auditOperationSchema = z.enum(AUDIT_OPERATIONS).meta({
  id: "AuditOperation",
  description:
    "`profile`, `transactions`, `search`, `export`, `transaction_facets` (the event names, creators and date span " +
    "of a player's transactions) and `monthly_activity` (a player's amounts per month) are reads of player data; " +
    "`audit_trail` is a read of this trail.",
});
export type AuditOperation = z.infer<typeof auditOperationSchema>;

/** Request parameters as received: single values as strings, repeated or list parameters as arrays. */
export const auditFiltersSchema = z
  .record(z.string(), z.union([z.string(), z.array(z.string())]))
  .meta({ id: "AuditFilters", description: "The query parameters of the recorded request, as sent." });
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

export const auditEventSchema = z
  .object({
    id: z
      .string()
      .meta({ description: "Increasing sequence number (a decimal string: it may exceed 2^53)." }),
    occurred_at: dateTimeSchema.meta({ description: "When the read was served." }),
    subject: z.string().meta({
      description: "Who read: the verified token's `sub` (a signed-in user or a client), or `demo`.",
    }),
    auth_mode: z.enum(["demo", "jwt"]),
    scopes: z.array(z.string()).meta({
      description: "Scopes the caller held; without `players:pii` the response had e-mail and phone masked.",
    }),
    session_id: z.string().meta({ description: "The request's X-Session-ID." }),
    operation: auditOperationSchema,
    player_id: z
      .string()
      .nullable()
      .meta({ description: "The player named in the path; null for a search." }),
    result_player_ids: z
      .array(z.string())
      .meta({ description: "For a search: the players whose data the response contained." }),
    filters: auditFiltersSchema,
    request_id: z.string().meta({ description: "The request's X-Request-ID (also in the access log)." }),
    client_address: z.string().nullable().meta({ description: "The caller's IP address." }),
  })
  .meta({ id: "AuditEvent", description: "One successful read of player data." });
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditCursorSchema = z
  .string()
  .regex(/^[1-9]\d{0,18}$/, "must be a next_cursor value from a previous page")
  .optional()
  .meta({ description: "Opaque: the `next_cursor` of the previous page. Omit for the newest events." });

export const auditListQuerySchema = z
  .strictObject({
    operation: z.array(auditOperationSchema).min(1).optional().meta({
      description:
        "Keep only these operations. Repeat the parameter, separate with commas or use `operation[]=`.",
    }),
    cursor: auditCursorSchema,
    limit: limitParam,
  })
  .meta({ id: "AuditListQuery" });
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export const AUDIT_LIST_ARRAY_PARAMS = ["operation"] as const;

export const auditListResponseSchema = z
  .object({
    events: z.array(auditEventSchema),
    total: z
      .number()
      .int()
      .meta({ description: "Events matching the filter for this player, at the time of reading." }),
    limit: z.number().int(),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    has_more: z.boolean(),
  })
  .meta({
    id: "AuditEventList",
    description:
      "Newest first. Cursor paging: events recorded while paging never shift or repeat pages. Includes reads where the player was named in the path and searches that returned the player.",
  });
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;
