import { z } from "zod";
import { playerIdSchema } from "@/platform/schemas/common";
import { safeText } from "../../../platform/schemas/common.ts";
import { updatedSinceParam } from "../../../platform/schemas/updated-since.ts";
import { transactionSchema } from "./transaction.ts";

/*
 * GET /transactions: every player's transactions for a machine client's copy, in (updated_at, id) order, keyset
 * paged, or up to 100 named transactions across players.
 */

/** Most rows one bulk page holds; also the default: the read is for copying. */
export const MAX_BULK_LIMIT = 1_000;
/** Most distinct transaction ids one `ids=` read takes. */
export const MAX_BULK_IDS = 100;

/** Where a bulk page ends: the (updated_at, id) of its last row. */
export interface BulkKey {
  updatedAt: Date;
  id: string;
}

const ID = /^[^\p{Cc}]{1,64}$/u;
const EARLIEST = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The layout names its order, so a cursor of a player's list (another order) never reads as one. */
const LAYOUT = /^updated~(-?\d{1,15})~(.+)$/su;

export function encodeBulkCursor(key: BulkKey): string {
  return Buffer.from(`updated~${key.updatedAt.getTime()}~${key.id}`, "utf8").toString("base64url");
}

/** The key a bulk cursor stands for, or null when it is not one this read issued. */
export function decodeBulkCursor(cursor: string): BulkKey | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // Decoding is lenient about trailing bits; a cursor must be exactly the encoding of its key.
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return null;
  const match = LAYOUT.exec(text);
  if (!match) return null;
  const ms = Number(match[1]);
  const id = match[2] ?? "";
  if (!Number.isSafeInteger(ms) || ms < EARLIEST || ms > LATEST || !ID.test(id)) return null;
  return { updatedAt: new Date(ms), id };
}

const bulkCursorParam = z
  .string()
  .transform((text, ctx): BulkKey => {
    const key = decodeBulkCursor(text);
    if (!key) {
      ctx.addIssue({
        code: "custom",
        message:
          "is not a cursor of GET /transactions (pass its `next_cursor` as is; a player's list cursor is another order)",
      });
      return z.NEVER;
    }
    return key;
  })
  .optional()
  .meta({
    override: { type: "string" },
    description:
      "Keyset paging: the `next_cursor` of the previous page; the answer holds the transactions after its last row in (`updated_at`, `id`) order. Costs the same at any depth. Keep `updated_since` as it was (or leave it out: the cursor alone is the position). A cursor of another read (e.g. a player's transaction list) is a 400 naming `cursor`.",
    param: { example: "dXBkYXRlZH4xNzY0MTMzMjAwMDAwflQwMDAwMDAwMDQy" },
  });

const bulkIdsParam = z
  .array(safeText(64))
  .min(1, "must name at least one transaction id")
  .refine(
    (ids) => new Set(ids).size <= MAX_BULK_IDS,
    `must name at most ${MAX_BULK_IDS} distinct transaction ids`,
  )
  .optional()
  .meta({
    description: `Up to ${MAX_BULK_IDS} distinct transaction ids of any players, comma-separated (\`ids=T0000000042,T0000000043\`) or repeated; duplicates count once. Unknown ids are simply absent from the answer. Cannot be combined with \`updated_since\`, \`cursor\` or \`limit\`.`,
    param: { example: ["T0000000042", "T0000000043"], style: "form", explode: false },
  });

export const bulkTransactionsQuerySchema = z
  .strictObject({
    updated_since: updatedSinceParam,
    cursor: bulkCursorParam,
    // No default in the schema: a `limit` beside `ids` is refused, so it must be seen as given.
    limit: z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform((s) => Number(s))
      .pipe(z.number().min(1, "must be at least 1").max(MAX_BULK_LIMIT, `must be at most ${MAX_BULK_LIMIT}`))
      .optional()
      .meta({
        description: `Page size: 1 to ${MAX_BULK_LIMIT} (default ${MAX_BULK_LIMIT}).`,
        override: { type: "integer", minimum: 1, maximum: MAX_BULK_LIMIT, default: MAX_BULK_LIMIT },
      }),
    ids: bulkIdsParam,
  })
  .superRefine((q, ctx) => {
    if (q.ids === undefined) return;
    const paging = (["updated_since", "cursor", "limit"] as const).filter((name) => q[name] !== undefined);
    if (paging.length === 0) return;
    const message =
      "`ids` names its transactions; `updated_since`, `cursor` and `limit` page through all of them: use one or the other";
    for (const name of ["ids", ...paging]) ctx.addIssue({ code: "custom", path: [name], message });
  })
  .meta({ id: "BulkTransactionsQuery" });

export type BulkTransactionsQuery = z.infer<typeof bulkTransactionsQuerySchema>;

export const bulkTransactionSchema = transactionSchema
  .extend({ player_id: playerIdSchema.meta({ description: "The player the transaction belongs to." }) })
  .meta({ id: "BulkTransaction", description: "A row of a player's transaction list, with its player." });

export type BulkTransaction = z.infer<typeof bulkTransactionSchema>;

export const bulkTransactionsResponseSchema = z
  .object({
    transactions: z.array(bulkTransactionSchema),
    has_more: z.boolean().meta({ description: "Whether transactions remain after this page." }),
    next_cursor: z.string().nullable().meta({
      description:
        "Pass as `cursor` to continue after this page's last row; null when none remain (and always with `ids`). Keep the last one: a later read from it returns what was written or changed since.",
    }),
  })
  .meta({
    id: "BulkTransactionPage",
    description:
      "In (`updated_at`, `id`) order, ascending: every transaction once per copy, ties of `updated_at` broken by `id`. A row updated while a client pages moves to the end (its new `updated_at`): it is read again there, never lost.",
  });

export type BulkTransactionsResponse = z.infer<typeof bulkTransactionsResponseSchema>;
