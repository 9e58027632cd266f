import { z } from "zod";
import { playerProfileSchema } from "@/features/players";
import { TRANSACTION_STATUSES, transactionSchema } from "@/features/transactions";
import { playerIdSchema } from "@/platform/schemas/common";
import { dateTimeSchema, wholeNumberParam } from "../../../platform/schemas/common.ts";

/* The change feed (GET /changes, docs/change-feed.md): what changed in the read model, in commit order. */

export const CHANGE_KINDS = [
  "player.created",
  "player.updated",
  "player.deleted",
  "transaction.created",
  "transaction.updated",
  "transaction.deleted",
  "player.transactions_changed",
  "reset",
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const MAX_CHANGES_LIMIT = 1000;
/** How many log entries a filtered page examines at most (features/changes/data/list-changes.ts). */
export const FILTERED_CHANGES_SCAN = 10_000;
export const DEFAULT_CHANGES_LIMIT = 100;

/** A position is a whole number below 2^53 (exact in every JSON parser). */
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

/** What a `feed` may look like on the way in: opaque, so any token of these characters (today's are 32 hex digits). */
const FEED_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;
const FEED_EXAMPLE = "3f9a0c2e71d84b5a9e6f1c0b2d7a4e58";

export const changesQuerySchema = z
  .strictObject({
    after: wholeNumberParam({ min: 0, max: MAX_POSITION, default: 0 }).meta({
      description:
        "List the changes after this position: 0 (the default) for the start of the feed, else the `next` of the previous answer (send its `feed` with it). A position beyond the feed's end (`tail`) is a 400: it was not issued by this database. A position below the pruning horizon (entries after it were deleted) is a 410 (`/problems/feed-gone`): start again with a full read. Without `feed`, `after=0` lists from the oldest entry kept.",
      param: { example: 0 },
      override: { type: "integer", minimum: 0, maximum: MAX_POSITION, default: 0 },
    }),
    feed: z
      .string()
      .regex(FEED_PATTERN, "must be the `feed` of an earlier answer, as is")
      .optional()
      .meta({
        description:
          "The `feed` of the answer that gave `after` (store the two together). Another database's feed (a dump restored elsewhere, a re-created database, a point-in-time recovery, a feed reset) is a 410 (`/problems/feed-gone`): its positions mean nothing here; start again with a full read. With `feed`, `after=0` is a position like any other (a 410 once entries after it were deleted). Optional: without it the position is taken as this feed's.",
        param: { example: FEED_EXAMPLE },
      }),
    include: z
      .enum(["record"])
      .optional()
      .meta({
        description:
          "`record`: each `player.*` and `transaction.*` entry carries `record`, the profile or the transaction as it is now (as `GET /players/{playerId}` and the transaction list answer them: contact data masked without `players:pii`, exact money), null when it no longer exists; a syncer then needs no read per change. Bulk entries and `reset` carry none.",
        param: { example: "record" },
      }),
    kinds: z
      .array(z.enum(CHANGE_KINDS, { error: `must be one of ${CHANGE_KINDS.join(", ")}` }))
      .min(1, "must name at least one kind")
      .optional()
      .meta({
        description:
          "Only entries of these kinds, comma-separated (`kinds=transaction.created,transaction.updated`) or repeated. `next` still moves past the entries left out, so a client following a filtered feed never examines them again. `reset` entries are always kept, whatever the filter: they tell every client to read everything again.",
        param: { example: ["transaction.created", "transaction.updated"], style: "form", explode: false },
      }),
    player_id: playerIdSchema.optional().meta({
      description:
        "Only this player's entries, and every `reset` (which names no player but concerns all). `next` still moves past the entries left out.",
      param: { example: "P000007" },
    }),
    limit: wholeNumberParam({ min: 1, max: MAX_CHANGES_LIMIT, default: DEFAULT_CHANGES_LIMIT }).meta({
      description: `Changes per page: 1 to ${MAX_CHANGES_LIMIT} (with \`include=record\` too). A filtered page (\`kinds\`, \`player_id\`) examines at most ${FILTERED_CHANGES_SCAN.toLocaleString("en-US")} entries: it can list fewer than \`limit\`, even none, with \`has_more\` true (ask again at once from \`next\`).`,
      param: { example: DEFAULT_CHANGES_LIMIT },
      override: {
        type: "integer",
        minimum: 1,
        maximum: MAX_CHANGES_LIMIT,
        default: DEFAULT_CHANGES_LIMIT,
      },
    }),
  })
  .meta({ id: "ChangesQuery" });

export const changeRecordSchema = z.xor([playerProfileSchema, transactionSchema, z.null()]).meta({
  id: "ChangeRecord",
  description:
    "With `include=record`, on `player.*` and `transaction.*` entries: the record as it is when the page is read (not as the change left it: a later entry names it again if it changed since), as the caller may see it. `player.*`: the profile as `GET /players/{playerId}` answers it (contact data masked without `players:pii`); `transaction.*`: the transaction as a row of `GET /players/{playerId}/transactions` (exact `amount`); null when it no longer exists (deleted). Absent without `include=record`, and on `player.transactions_changed` and `reset`.",
});
export type ChangeRecord = z.infer<typeof changeRecordSchema>;

export const changeSchema = z
  .object({
    position: z.number().int().meta({
      description: "This change's place in commit order: increasing, with gaps (rolled-back writes).",
    }),
    kind: z.enum(CHANGE_KINDS).meta({
      id: "ChangeKind",
      description:
        "`player.created|updated|deleted` (re-read the profile), `transaction.created|updated|deleted` (re-read the transaction: `updated` includes a status change), `player.transactions_changed` (a bulk write of many of this player's transactions: re-read them with `updated_since` = `changed_at`), `reset` (a table was emptied and reloaded, e.g. by the seed or `db:generate`: read everything again).",
    }),
    player_id: z.string().nullable().meta({ description: "The player concerned; null for `reset`." }),
    transaction_id: z
      .string()
      .nullable()
      .meta({ description: "For `transaction.*` kinds: the transaction; else null." }),
    status: z.enum(TRANSACTION_STATUSES).nullable().meta({
      description: "For `transaction.created|updated`: the status as committed; else null.",
    }),
    version: z.number().int().nullable().meta({
      description:
        "The record's wallet version as committed (0 when not from the wallet); null for deletions, bulk entries and `reset`.",
    }),
    changed_at: dateTimeSchema.meta({
      description:
        "The writing transaction's start time: the `updated_at` of every row it wrote. Not an order: positions are.",
    }),
    record: changeRecordSchema.optional(),
  })
  .meta({ id: "Change" });
export type Change = z.infer<typeof changeSchema>;

export const changeListResponseSchema = z
  .object({
    changes: z.array(changeSchema),
    next: z.number().int().meta({
      description:
        "Pass as `after` to continue: the last listed position, or `after` itself when nothing was listed (never null: polling an empty tail keeps the same position). With `kinds` or `player_id`: the last position examined, listed or not, so the entries left out are never examined again.",
    }),
    has_more: z.boolean().meta({ description: "Whether more changes follow this page right now." }),
    tail: z.number().int().meta({
      description:
        "The newest committed position when this page was read (0 for an empty feed). A new syncer notes it (and `feed`) before its full read, then follows from it.",
    }),
    feed: z.string().meta({
      description:
        "This database's change feed: an opaque name (today 32 hex digits), different for another database, a dump restored elsewhere (even into the same server), a re-created database, a point-in-time recovery or a feed reset. Positions mean something only in their feed: store `feed` with the position and send it back as `feed` with `after`.",
      example: FEED_EXAMPLE,
    }),
  })
  .meta({
    id: "ChangeList",
    description:
      "Changes in commit order: a change committed after this page was read always gets a higher position than `next`, so following `next` never skips one.",
  });
