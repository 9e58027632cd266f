import { z } from "zod";
import { eventTypeSchema } from "@/features/transactions";
import {
  dateTimeSchema,
  exactNumberSchema,
  limitParam,
  offsetParam,
  pageEnvelope,
  playerIdSchema,
  safeText,
} from "../../../platform/schemas/common.ts";
import { KYC_STATUSES } from "../../../platform/schemas/enums.ts";
import { updatedSinceParam } from "../../../platform/schemas/updated-since.ts";

export { KYC_STATUSES };
export const kycStatusSchema = z.enum(KYC_STATUSES).meta({ id: "KycStatus" });

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

/** Full with the players:pii scope; otherwise masked by features/players/data/mask-contact.ts. */
const contactEmailSchema = z.union([z.email(), z.string().regex(/^(?:[^@]?\*\*\*@.+|\*\*\*)$/u)]).meta({
  description:
    "The full address with the `players:pii` scope; otherwise masked to its first character and domain, e.g. `j***@example.com`.",
  examples: ["jane.doe@example.com", "j***@example.com"],
});

const contactPhoneSchema = z.string().meta({
  description:
    "The full number with the `players:pii` scope; otherwise masked to the international prefix and the last two digits, e.g. `+44 ••• ••• 89`.",
  examples: ["+44 7700 900189", "+44 ••• ••• 89"],
});

export const balancesSchema = z
  .object({
    total_balance: exactNumberSchema.meta({ description: "cash_balance + bonus_balance." }),
    cash_balance: exactNumberSchema.meta({
      description:
        "Completed non-bonus transactions plus pending withdrawals (reserved as soon as requested).",
    }),
    bonus_balance: exactNumberSchema.meta({
      description: "Completed bonus grants minus conversions and expiries.",
    }),
    withdrawable_balance: exactNumberSchema.meta({
      description:
        "cash_balance when the player may withdraw (not blocked, withdrawal_status `allowed`), else 0.",
    }),
    pending_withdrawal: exactNumberSchema.meta({
      description: "Sum of withdrawals not yet completed (positive).",
    }),
  })
  .meta({ id: "Balances", description: "All amounts in the player's currency." });

export const kpiSchema = z
  .object({
    active_bonus: z.boolean().meta({ description: "Whether a bonus is active (bonus_balance > 0)." }),
    wr: exactNumberSchema.meta({
      description:
        "Wagering requirement: amount still to be wagered before the active bonus converts to cash (30× the newest grant minus bets since). 0 without an active bonus.",
    }),
    last_withdrawal: nullable(
      z.object({
        amount: exactNumberSchema.meta({ description: "Positive amount of the newest withdrawal." }),
        date: dateTimeSchema.meta({ description: "When it was requested: its transaction `date`." }),
        status: z.enum(["completed", "pending"]),
      }),
    ).meta({ description: "Newest withdrawal; null if the player never withdrew." }),
    last_deposit: nullable(
      z.object({
        amount: exactNumberSchema,
        date: dateTimeSchema,
      }),
    ).meta({ description: "Newest completed deposit; null if none." }),
    ltd: exactNumberSchema.meta({ description: "Lifetime deposits: sum of completed deposits." }),
    ltw: exactNumberSchema.meta({
      description: "Lifetime withdrawals: sum of completed withdrawals (positive).",
    }),
    ltnc: exactNumberSchema.meta({
      description: "Lifetime net cash: ltd − ltw (negative when the player withdrew more than deposited).",
    }),
  })
  .meta({ id: "Kpi", description: "Key performance indicators, derived from the player's transactions." });

export const settingsSchema = z
  .object({
    marketing_email_subscription: z.boolean(),
    email_validation: z.boolean(),
    email_account_activation: nullable(z.string()),
    marketing_sms_subscription: z.boolean(),
    sms_validation: z.boolean(),
    sms_account_activation: nullable(z.string()),
    want_bonus: z.boolean(),
  })
  .meta({ id: "Settings", description: "Communication settings." });

export const playerProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: nullable(contactEmailSchema),
    phone: nullable(contactPhoneSchema),
    currency: z.string().meta({ description: "ISO 4217 code, or a crypto ticker such as BTC." }),
    language: nullable(z.string()).meta({ description: "Language name in English, e.g. `German`." }),
    registration_date: dateTimeSchema,
    ftd_date: nullable(dateTimeSchema).meta({ description: "First completed deposit; null if none." }),
    last_login: nullable(dateTimeSchema),
    kyc_status: kycStatusSchema,
    withdrawal_status: nullable(z.string()).meta({
      description: "Free text; the demo data uses `allowed`, `on_hold` and `blocked`.",
    }),
    affiliate_name: nullable(z.string()),
    affiliate_source: nullable(z.string()),
    vip_manager: nullable(z.string()),
    blocked: z.boolean(),
    balances: balancesSchema,
    kpi: kpiSchema,
    segments: z.array(z.string()).meta({ description: "Segment labels, e.g. `high_roller`." }),
    settings: settingsSchema,
    updated_at: dateTimeSchema.meta({
      description:
        "An addition to the spec: when this profile last changed in the read model (any field, balances and KPIs included). For incremental sync use the change feed (`GET /changes`), which also catches changes committed late with an earlier `updated_at`.",
    }),
  })
  .meta({
    id: "PlayerProfile",
    description: "Every field is always present; a value that is unknown is null.",
  });

export type PlayerProfile = z.infer<typeof playerProfileSchema>;

/** Most distinct ids one batch read takes (`GET /players?ids=…`). */
export const MAX_BATCH_IDS = 100;

export const playerBatchIdsParam = z
  .array(playerIdSchema)
  .min(1, "must name at least one player id")
  .refine(
    (ids) => new Set(ids).size <= MAX_BATCH_IDS,
    `must name at most ${MAX_BATCH_IDS} distinct player ids`,
  )
  .meta({
    description: `A batch read: up to ${MAX_BATCH_IDS} distinct player ids, comma-separated (\`ids=P000007,P000008\`) or repeated (\`ids=P000007&ids=P000008\`); duplicates count once. Answers full profiles (\`PlayerBatch\`) instead of a search page; cannot be combined with \`q\`, \`assigned\`, \`limit\` or \`offset\`.`,
    param: { example: ["P000007", "P000008"], style: "form", explode: false },
  });

export const playerBatchQuerySchema = z
  .strictObject({ ids: playerBatchIdsParam })
  .meta({ id: "PlayerBatchQuery" });

export const playerBatchResponseSchema = z
  .object({
    players: z.array(playerProfileSchema).meta({
      description:
        "The profiles found, in the order their ids were first named; each as `GET /players/{playerId}` answers it (masked alike without `players:pii`).",
    }),
    missing: z.array(z.string()).meta({
      description:
        "The ids named that are no player, in the order named (not an error: the others are answered).",
    }),
  })
  .meta({
    id: "PlayerBatch",
    description:
      "A batch read's answer. Each player returned is one `profile` row in the audit trail, as if read one by one; a missing id is not recorded.",
  });

export type PlayerBatch = z.infer<typeof playerBatchResponseSchema>;

const profile = playerProfileSchema.shape;

/** A search result: the profile's fields that tell namesakes apart (as the profile describes them). */
export const playerSummarySchema = z
  .object({
    id: profile.id,
    name: profile.name,
    email: profile.email,
    phone: profile.phone,
    currency: z.string(),
    language: profile.language,
    registration_date: profile.registration_date,
    last_login: profile.last_login,
    last_activity: nullable(dateTimeSchema).meta({
      description:
        "The newer of the last login and the newest transaction; null when the player has neither.",
    }),
    total_balance: exactNumberSchema.meta({ description: "cash_balance + bonus_balance, in `currency`." }),
    kyc_status: profile.kyc_status,
    withdrawal_status: profile.withdrawal_status,
    blocked: profile.blocked,
    vip_manager: profile.vip_manager,
  })
  .meta({
    id: "PlayerSummary",
    description:
      "Enough to tell namesakes apart in a result list: currency, language, registration, last login and last activity, balance, and the phone number's country code and last two digits (even masked).",
  });

export type PlayerSummary = z.infer<typeof playerSummarySchema>;

export const playerSearchQuerySchema = z
  .strictObject({
    q: safeText(100)
      .optional()
      .meta({
        description:
          "A part of the player's id, or words of the name (each anywhere in the name, ignoring case and accents: `zoe cote` finds `Zoé Côté`), or an e-mail address or phone number. " +
          "Without the `players:pii` scope contact data matches only whole: an e-mail address exactly (ignoring case), a phone number by its digits (`+44 7700 900189`, `0044 7700900189` and `447700900189` are one number); a part of either matches nothing. " +
          "With `players:pii` an e-mail address also matches in part. A transaction id (ignoring case) is looked up too: see `transactions`. Omit to list all players.",
      }),
    assigned: z.literal("me").optional().meta({
      description:
        "`me`: only the players whose `vip_manager` is the caller: the manager their verified token's subject (`sub`) is mapped to (`VIP_MANAGER_SUBJECTS`), never the token's editable `name` (a VIP manager's own list). Combines with `q`.",
    }),
    updated_since: updatedSinceParam.meta({
      override: { type: "string", format: "date-time" },
      param: { example: "2026-11-20T12:00:00.000Z" },
      description:
        "An addition to the spec: only the players whose profile changed at or after this instant (`updated_at`: any field, balances and KPIs included), e.g. to refresh a copy with batch reads (`ids`). A time stamp is not a safe sync position on its own (a change committed late can carry an earlier `updated_at`): follow the change feed (`GET /changes`) for exact incremental sync. Does not narrow `transactions` (the lookup by transaction id).",
    }),
    limit: limitParam,
    offset: offsetParam,
  })
  .meta({ id: "PlayerSearchQuery" });

/** GET /exports/players: every profile the caller may read, in id order, as NDJSON (resumable with `after`). */
export const playerExportQuerySchema = z
  .strictObject({
    manager: safeText(100)
      .optional()
      .meta({
        description:
          "Keep the players whose `vip_manager` is exactly this name (case-sensitive), a VIP manager's book. Omit for every player.",
        param: { example: "Elena Rossi" },
      }),
    after: safeText(64)
      .optional()
      .meta({
        description:
          "Resume a cut export: the `id` of the last whole line received. The answer holds the players after it in id order, with the same `manager`; append it to what was received. It must be an existing player's id (it need not match `manager`: a player moved to another book meanwhile still marks the position); any other value is a 400 naming `after`.",
        param: { example: "P000120" },
      }),
  })
  .meta({ id: "PlayerExportQuery" });

export const transactionMatchSchema = z
  .object({
    id: z.string().meta({ description: "The transaction's id as stored (q matched it ignoring case)." }),
    player_id: z.string(),
    player_name: z.string(),
    date: dateTimeSchema,
    event_type: eventTypeSchema,
  })
  .meta({
    id: "TransactionMatch",
    description:
      "A transaction whose id is `q`, ignoring case, and its player: open it with `GET /players/{player_id}/transactions?transaction_id={id}`.",
  });

export type TransactionMatch = z.infer<typeof transactionMatchSchema>;

export const playerSearchResponseSchema = z
  .object({
    players: z.array(playerSummarySchema),
    ...pageEnvelope,
    transactions: z.array(transactionMatchSchema).meta({
      description:
        "Transactions whose id equals `q` ignoring case, across all players (with `assigned=me`, the caller's players'); at most 5, empty when q is not a transaction id. The same on every page.",
    }),
  })
  .meta({
    id: "PlayerSearchResult",
    description:
      "Players ordered by id, and the transactions whose id is `q`. The audit row of the search lists every player the answer names, a transaction's player included.",
  });

export type PlayerSearchResponse = z.infer<typeof playerSearchResponseSchema>;
