import { z } from "zod";
import {
  dateTimeSchema,
  exactNumberSchema,
  limitParam,
  offsetParam,
  pageEnvelope,
  safeText,
} from "./common.ts";
import { type DateBound, type DateBoundKind, parseDateBound } from "./date-bound.ts";
import { CREATORS, EVENT_TYPES } from "./enums.ts";

export { CREATORS, EVENT_TYPES };
export const eventTypeSchema = z.enum(EVENT_TYPES).meta({ id: "EventType" });
export type EventType = z.infer<typeof eventTypeSchema>;

export const transactionSchema = z
  .object({
    id: z.string(),
    date: dateTimeSchema.meta({ description: "When the event happened." }),
    event_type: eventTypeSchema,
    event_name: z.string().meta({ description: "Descriptive label, e.g. `Card Deposit`, `Casino Bet`." }),
    event_note: z.string().nullable(),
    amount: exactNumberSchema.meta({
      description:
        "Signed, from the player's point of view: money in (deposit, win, bonus grant, refund) is positive, money out (withdrawal, bet, bonus conversion or expiry) negative; adjustments either way.",
    }),
    currency: z.string(),
    payment_method: z
      .string()
      .nullable()
      .meta({ description: "For deposits and withdrawals; null for game events." }),
    created_by: z.string().meta({ description: "`System`, `VIP Manager` or `Admin`." }),
    created_at: dateTimeSchema.meta({ description: "When the record was created." }),
    completed_at: dateTimeSchema.nullable().meta({ description: "null while pending." }),
  })
  .meta({ id: "Transaction" });

export type Transaction = z.infer<typeof transactionSchema>;

const dateParam = (kind: DateBoundKind) =>
  z
    .string()
    .transform((text, ctx): DateBound => {
      const bound = parseDateBound(text, kind);
      if (!bound) {
        ctx.addIssue({
          code: "custom",
          message: "must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T23:59:59Z)",
        });
        return z.NEVER;
      }
      return bound;
    })
    .optional()
    .meta({
      override: { type: "string" },
      description:
        kind === "from"
          ? "Keep transactions whose `date` is at or after this instant (inclusive). A date-time without offset is UTC; a date alone means 00:00:00Z of that day."
          : "Keep transactions whose `date` is at or before this instant (inclusive). A date-time without offset is UTC; a date alone includes that whole UTC day.",
      param: { example: kind === "from" ? "2026-01-01" : "2026-01-31T23:59:59Z" },
    });

const listDescription = (name: string, a: string, b: string) =>
  `Repeat the parameter (\`${name}=${a}&${name}=${b}\`), separate values with commas (\`${name}=${a},${b}\`) or use the bracket form (\`${name}[]=${a}\`). Values of one parameter combine with OR; commas always separate values and surrounding spaces are ignored.`;

export const transactionListQuerySchema = z
  .strictObject({
    event_type: z
      .array(eventTypeSchema)
      .min(1)
      .optional()
      .meta({
        description: `Keep transactions of these event types. ${listDescription("event_type", "bet", "win")}`,
      }),
    event_name: z
      .array(safeText(200))
      .min(1)
      .max(50, "at most 50 values")
      .optional()
      .meta({
        description: `Keep transactions with exactly these event names (case-sensitive). ${listDescription("event_name", "Casino%20Bet", "Casino%20Win")}`,
      }),
    from_date: dateParam("from"),
    to_date: dateParam("to"),
    created_by: safeText(100).optional().meta({
      description: "Keep transactions created by exactly this creator: `System`, `VIP Manager` or `Admin`.",
    }),
    limit: limitParam,
    offset: offsetParam,
  })
  .superRefine((q, ctx) => {
    if (q.from_date && q.to_date) {
      const empty = q.to_date.exclusive ? q.from_date.at >= q.to_date.at : q.from_date.at > q.to_date.at;
      if (empty) ctx.addIssue({ code: "custom", path: ["from_date"], message: "must not be after to_date" });
    }
  })
  .meta({ id: "TransactionListQuery" });

export type TransactionListQuery = z.infer<typeof transactionListQuerySchema>;
export type TransactionFilters = Omit<TransactionListQuery, "limit" | "offset">;

export const transactionListResponseSchema = z
  .object({
    transactions: z.array(transactionSchema),
    ...pageEnvelope,
  })
  .meta({
    id: "TransactionList",
    description: "Newest first by `date`, ties broken by `id` descending: pages never overlap or skip.",
  });

export type TransactionListResponse = z.infer<typeof transactionListResponseSchema>;

/** Query parameters that take several values. */
export const TRANSACTION_LIST_ARRAY_PARAMS = ["event_type", "event_name"] as const;
