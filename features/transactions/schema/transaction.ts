import { z } from "zod";
import {
  dateTimeSchema,
  exactNumberSchema,
  limitParam,
  offsetParam,
  pageEnvelope,
  safeText,
} from "../../../platform/schemas/common.ts";
import { checkDateRange, dateBoundParam } from "../../../platform/schemas/date-bound.ts";
import { CREATORS, EVENT_TYPES } from "../../../platform/schemas/enums.ts";
import { offsetInstant, updatedSinceParam } from "../../../platform/schemas/updated-since.ts";
import {
  decodeSortedCursor,
  TRANSACTION_SORTS,
  type TransactionCursor,
  type TransactionSort,
} from "./transaction-cursor.ts";

export { CREATORS, EVENT_TYPES };
export const TRANSACTION_STATUSES = ["pending", "completed", "failed", "cancelled"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
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
    status: z.enum(TRANSACTION_STATUSES).meta({
      id: "TransactionStatus",
      description:
        "An addition to the spec. `pending` (not yet settled), `completed` (`completed_at` is set exactly then), `failed` (rejected, e.g. by the payment processor) or `cancelled` (withdrawn before settling). Failed and cancelled transactions moved no money: balances, KPIs and completed figures leave them out.",
    }),
    updated_at: dateTimeSchema.meta({
      description:
        "An addition to the spec: when this record last changed in the read model (created, or its status or any field changed). Unlike `date`, it moves with every change: a backdated transaction has an old `date` and a new `updated_at`.",
    }),
  })
  .meta({ id: "Transaction" });

export type Transaction = z.infer<typeof transactionSchema>;

const listDescription = (name: string, a: string, b: string) =>
  `Repeat the parameter (\`${name}=${a}&${name}=${b}\`), separate values with commas (\`${name}=${a},${b}\`) or use the bracket form (\`${name}[]=${a}\`). Values of one parameter combine with OR; commas always separate values and surrounding spaces are ignored.`;

/** The filters shared by the list and the export: one definition, so both read a query string the same way. */
const transactionFilterShape = {
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
  from_date: dateBoundParam("from", "transactions whose `date` is"),
  to_date: dateBoundParam("to", "transactions whose `date` is"),
  created_by: safeText(100).optional().meta({
    description: "Keep transactions created by exactly this creator: `System`, `VIP Manager` or `Admin`.",
  }),
  status: z.enum(TRANSACTION_STATUSES).optional().meta({
    description:
      "Keep transactions in this `status`: `pending`, `completed` (`completed_at` set), `failed` or `cancelled`. Totals stay exact either way.",
  }),
  transaction_id: safeText(64)
    .optional()
    .meta({
      description:
        "Look up one transaction by its exact `id` (case-sensitive), within the other filters: the result has 0 or 1 row.",
      param: { example: "T0000000042" },
    }),
};

/** The order of the list and the export; chosen by `sort`, default newest first. */
const sortParam = z.enum(TRANSACTION_SORTS).default("date_desc").meta({
  description:
    "`date_desc` (newest first, the default), `date_asc` (oldest first), `amount_desc` (largest first by size, the absolute value of `amount`: a −2,073 withdrawal before a −145 one, a credit and a debit of the same size side by side) or `amount_asc` (smallest first by size). Ties are broken by `id` in the same direction, so every order is total and pages never overlap or skip. `total` does not depend on the order. A deep `offset` is cheap for the date orders (whole days are skipped by their daily counts); for the amount orders its cost grows with the offset (an index-only scan over the entries skipped): page deep amount-sorted results with `cursor`.",
});

const cursorParam = z
  .string()
  .transform((text, ctx): TransactionCursor => {
    const key = decodeSortedCursor(text);
    if (!key) {
      ctx.addIssue({
        code: "custom",
        message: "is not a cursor this API issued (pass a `next_cursor` value as is)",
      });
      return z.NEVER;
    }
    return key;
  })
  .optional()
  .meta({
    override: { type: "string" },
    description:
      "Keyset paging for deep reads: pass the `next_cursor` of the previous page to get the transactions that follow its last row, in the same order. Costs the same at any depth, unlike `offset`. Cannot be combined with a non-zero `offset`; keep the same filters and `sort` from page to page (a cursor is a position, not a saved query; one issued for another `sort` is rejected).",
    param: { example: "MTc2MzY0MDAwMDAwMC5UMDAwMDAwMDAwMQ" },
  });

export const transactionListQuerySchema = z
  .strictObject({
    ...transactionFilterShape,
    sort: sortParam,
    limit: limitParam,
    offset: offsetParam,
    cursor: cursorParam,
    updated_since: updatedSinceParam,
  })
  .superRefine((q, ctx) => {
    checkDateRange(q, ctx);
    if (q.updated_since && q.sort.startsWith("amount")) {
      ctx.addIssue({
        code: "custom",
        path: ["updated_since"],
        message: `cannot be combined with sort=${q.sort} (use date_desc or date_asc)`,
      });
    }
    if (q.cursor && q.offset > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["cursor"],
        message: "cannot be combined with a non-zero offset",
      });
    }
    if (q.cursor && q.cursor.sort !== q.sort) {
      ctx.addIssue({
        code: "custom",
        path: ["cursor"],
        message: `was issued for sort=${q.cursor.sort}, not sort=${q.sort} (start again without a cursor)`,
      });
    }
  })
  .meta({ id: "TransactionListQuery" });

export type TransactionFilters = Omit<
  z.infer<typeof transactionListQuerySchema>,
  "limit" | "offset" | "cursor" | "sort" | "updated_since"
>;
export type { TransactionSort };

export const EXPORT_FORMATS = ["csv", "ndjson"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An amount as the export writes it: signed exact digits, numeric(20,8) at most. */
const AMOUNT = /^-?(0|[1-9]\d{0,11})(\.\d{1,8})?$/;

/** The `date` of the last row received, as the export writes it (or any other instant with an offset). */
const afterDateParam = offsetInstant(
  "must be the last row's `date` as received: an ISO 8601 instant with an offset and at most millisecond precision",
)
  .optional()
  .meta({
    override: { type: "string", format: "date-time" },
    description:
      "With `after`: the last received row's `date`, as received. With it (and `after_amount` for the amount orders) the export continues from that row's place in the order whether or not the row still exists; without it, `after` must name an existing transaction.",
    param: { example: "2026-11-20T18:04:11.000Z" },
  });

const afterAmountParam = z
  .string()
  .regex(AMOUNT, "must be the last row's `amount` as received (exact decimal digits, optional sign)")
  .optional()
  .meta({
    description:
      "With `after`: the last received row's `amount`, as received (its sign does not matter: the amount orders sort by size). Needed for `sort=amount_desc` and `amount_asc` to continue without looking the row up; the date orders do not read it.",
    param: { example: "-123456789012.12345678" },
  });

export const transactionExportQuerySchema = z
  .strictObject({
    ...transactionFilterShape,
    sort: sortParam,
    format: z.enum(EXPORT_FORMATS).default("csv").meta({
      description:
        "`csv` (RFC 4180, a header row, UTF-8) or `ndjson` (one `TransactionExportLine` per line: the list's transaction with `player_id` first; `npm run db:import` reads it).",
    }),
    after: safeText(64)
      .optional()
      .meta({
        description:
          "Resume a cut export: the `id` of the last row received (NDJSON: the last whole line's `id`; CSV: the `id` column, without the apostrophe the export puts before an id that starts with `=`, `+`, `-` or `@`). The answer holds the rows after it in the order `sort` with the same filters: send the same `sort` and filters, and append the answer to what was received. Alone, it must be a transaction of this player (it need not still match the filters: a pending row that completed meanwhile still marks the position); any other value is a 400 naming `after`. With `after_date` (date orders) or `after_amount` (amount orders), the last row's own values, the row need not exist any more: a row deleted meanwhile still marks the position.",
        param: { example: "T0000000042" },
      }),
    after_date: afterDateParam,
    after_amount: afterAmountParam,
  })
  .superRefine((q, ctx) => {
    checkDateRange(q, ctx);
    if (q.after_date === undefined && q.after_amount === undefined) return;
    for (const name of ["after_date", "after_amount"] as const) {
      if (q[name] !== undefined && q.after === undefined) {
        ctx.addIssue({ code: "custom", path: [name], message: "needs `after` (the last row's `id`)" });
      }
    }
    // The key of the order: date and id, or the amount's size and id. Given one, the sort's one is needed.
    const needed = q.sort.startsWith("amount") ? "after_amount" : "after_date";
    if (q.after !== undefined && q[needed] === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [needed],
        message: `sort=${q.sort} continues from the last row's ${needed === "after_date" ? "`date`" : "`amount`"}: pass it as ${needed} (or send \`after\` alone to look the row up)`,
      });
    }
  })
  .meta({ id: "TransactionExportQuery" });

/**
 * One NDJSON line of the transactions export: the list's transaction (`updated_at` included) with its player first.
 * The CSV has the same columns in the same order.
 */
export const transactionExportLineSchema = z
  .object({
    player_id: z.string().meta({ description: "The player the transaction belongs to." }),
    ...transactionSchema.shape,
  })
  .meta({
    id: "TransactionExportLine",
    description:
      "Each line of the transactions export (`format=ndjson`) is one of these, ended by a line feed; the body is many lines, not one JSON document. The transaction exactly as the list writes it, `updated_at` included, with `player_id` first; the CSV has these columns in this order.",
  });

export const transactionListResponseSchema = z
  .object({
    transactions: z.array(transactionSchema),
    ...pageEnvelope,
    offset: z.number().int().meta({ description: "Number of results skipped (0 when paging by `cursor`)." }),
    has_more: z.boolean().meta({ description: "Whether results remain beyond this page." }),
    next_cursor: z.string().nullable().meta({
      description:
        "Pass as `cursor` to continue after this page's last row (keyset paging); null when no results remain.",
    }),
  })
  .meta({
    id: "TransactionList",
    description:
      "In the order `sort` asks for (default newest first by `date`), ties broken by `id` in the same direction: pages never overlap or skip.",
  });

export type TransactionListResponse = z.infer<typeof transactionListResponseSchema>;

/** The facets take the list's filters: each facet's counts follow every filter but its own. */
export const transactionFacetsQuerySchema = z
  .strictObject(transactionFilterShape)
  .superRefine(checkDateRange)
  .meta({ id: "TransactionFacetsQuery" });
