import { z } from "zod";
import { AUDIT_OPERATION_ENTRIES } from "@/platform/audit/audit-operations";
import { playerIdSchema } from "@/platform/schemas/common";
import { dateTimeSchema, limitParam, safeText } from "../../../platform/schemas/common.ts";
import { checkDateRange, dateBoundParam } from "../../../platform/schemas/date-bound.ts";
import { AUDIT_OPERATIONS } from "../../../platform/schemas/enums.ts";

export { AUDIT_OPERATIONS };

export const auditOperationSchema = z.enum(AUDIT_OPERATIONS).meta({
  id: "AuditOperation",
  description: `What was read. ${Object.entries(AUDIT_OPERATION_ENTRIES)
    .map(([name, entry]) => `\`${name}\`: ${entry.description}`)
    .join("; ")}.`,
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
    subject_name: z.string().nullable().meta({
      description:
        "The person's display name from the verified token (`name`, else `preferred_username`); null when the token names nobody (a client, the demo token) or the read predates names.",
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
    request_id: z.string().meta({
      description: "The server's id of the request (the answer's X-Request-ID; also in the access log).",
    }),
    client_request_id: z.string().nullable().meta({
      description: "The X-Request-ID the client sent, if a well-formed one: the client's word, not verified.",
    }),
    client_address: z.string().nullable().meta({ description: "The caller's IP address." }),
    text_replaced: z.boolean().meta({
      description:
        "Some text of the request (a name, a parameter) could not be stored as sent (a NUL or an unpaired UTF-16 surrogate) and was replaced with U+FFFD; the read is recorded all the same.",
    }),
  })
  .meta({ id: "AuditEvent", description: "One successful read of player data." });
export type AuditEvent = z.infer<typeof auditEventSchema>;

/** audit_events.id is a PostgreSQL bigint: a larger cursor would fail in the database (a 500), not here. */
const MAX_AUDIT_ID = "9223372036854775807";
const NOT_A_CURSOR = "must be a next_cursor value from a previous page";

export const auditCursorSchema = z
  .string()
  .regex(/^[1-9]\d{0,18}$/, { message: NOT_A_CURSOR, abort: true })
  // Same-length digit strings compare like their numbers.
  .refine((s) => s.length < MAX_AUDIT_ID.length || s <= MAX_AUDIT_ID, NOT_A_CURSOR)
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

export const auditLogQuerySchema = z
  .strictObject({
    subject: safeText(200).optional().meta({
      description: "Keep reads by exactly this user or client (the token's `sub`, as in `subject`).",
    }),
    user: safeText(200)
      .optional()
      .meta({
        description:
          "Keep reads by this user, named either way: their id exactly (the token's `sub`, as in `subject`), or their display name or its beginning, ignoring case (`ana` finds `Ana Lopez`; as in `subject_name`).",
        param: { example: "Ana" },
      }),
    player_id: playerIdSchema.optional().meta({
      description:
        "Keep reads of this player: named in the path, or returned by a search. The answer then also has `readers`.",
    }),
    operation: auditListQuerySchema.shape.operation,
    from_date: dateBoundParam("from", "events"),
    to_date: dateBoundParam("to", "events"),
    cursor: auditCursorSchema,
    limit: limitParam,
  })
  .superRefine(checkDateRange)
  .meta({ id: "AuditLogQuery" });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;
export type AuditLogFilters = Omit<AuditLogQuery, "cursor" | "limit">;

export const auditReaderSchema = z
  .object({
    subject: z.string().meta({ description: "Who read, as in an event's `subject`." }),
    subject_name: z.string().nullable().meta({ description: "Their newest display name; null if none." }),
    reads: z.number().int().meta({ description: "How many reads of the player's data they made." }),
    last_read_at: dateTimeSchema.meta({ description: "When they last read it." }),
  })
  .meta({ id: "AuditReader", description: "One user's reads of one player's data." });
export type AuditReader = z.infer<typeof auditReaderSchema>;

/** The most readers a summary lists (the most recent first). */
export const MAX_AUDIT_READERS = 20;

export const auditLogResponseSchema = z
  .object({
    events: z.array(auditEventSchema),
    readers: z
      .array(auditReaderSchema)
      .nullable()
      .meta({
        description: `With \`player_id\`: who read that player's data, how often and when last, under the same user, operation and period filters (reads of the audit trail itself left out), the most recent reader first, at most ${MAX_AUDIT_READERS}; the same on every page. Null without \`player_id\`.`,
      }),
    limit: z.number().int(),
    next_cursor: z.string().nullable().meta({
      description: "Pass as `cursor` (with the same filters) for the next page; null on the last page.",
    }),
    has_more: z.boolean(),
  })
  .meta({
    id: "AuditLog",
    description:
      "Every recorded read across all players, newest first. Cursor paging: events recorded while paging never shift or repeat pages. No total: counting the whole trail would cost more than the page.",
  });
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;
