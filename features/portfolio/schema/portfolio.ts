import { z } from "zod";
import { dateTimeSchema, exactNumberSchema, safeText } from "../../../platform/schemas/common.ts";
import { KYC_STATUSES, PORTFOLIO_FLAGS } from "../../../platform/schemas/enums.ts";

// Kept zod-free in enums.ts for the browser's bundle (the portfolio's flag filter).
export { PORTFOLIO_FLAGS, type PortfolioFlag } from "../../../platform/schemas/enums.ts";

export const portfolioQuerySchema = z
  .strictObject({
    manager: safeText(200).optional().meta({
      description:
        "The VIP manager whose book to list: a value of the profiles' `vip_manager`, matched exactly. A VIP manager may name only themselves (the manager their verified token's subject, `sub`, is mapped to by `VIP_MANAGER_SUBJECTS`; never the token's editable `name`) and may leave it out; an admin must name one. Support agents and callers without a role may not read portfolios (403).",
    }),
  })
  .meta({ id: "PortfolioQuery" });

const changeSchema = z
  .object({
    current: exactNumberSchema.meta({ description: "The last 30 UTC days, the portfolio's day included." }),
    previous: exactNumberSchema.meta({ description: "The 30 UTC days before those." }),
    change: exactNumberSchema.meta({ description: "`current − previous`." }),
  })
  .meta({ id: "PortfolioFigure" });

export const portfolioFlagSchema = z.enum(PORTFOLIO_FLAGS).meta({
  id: "PortfolioFlag",
  description:
    "`churn_risk`: no transaction for `flag_rules.churn_days` UTC days or more, after having had some. `big_withdrawal`: a withdrawal (pending or completed) in the 7 days up to `as_of` above the currency's amount in `flag_rules.big_withdrawal_amounts`, or above `flag_rules.big_withdrawal_percent` % of what the player held (the balance now plus that withdrawal). `pending_withdrawal_24h`: a withdrawal requested more than 24 hours before `as_of` is still pending. `deposit_spike`: completed deposits of the last 7 UTC days above `flag_rules.deposit_spike_factor` × the usual week (the average weekly completed deposits of the 12 weeks before those 7 days); a player with no deposits in those 12 weeks has no usual week and is not flagged.",
});

export const portfolioPlayerSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    currency: z.string().meta({ description: "The player's currency: every amount of the row is in it." }),
    total_balance: exactNumberSchema,
    blocked: z.boolean(),
    kyc_status: z.enum(KYC_STATUSES),
    withdrawal_status: z.string().nullable(),
    segments: z.array(z.string()),
    deposits: changeSchema.meta({ description: "Completed deposits: sum of amounts." }),
    withdrawals: changeSchema.meta({ description: "Completed withdrawals: sum of absolute amounts." }),
    net_deposits: changeSchema.meta({ description: "`deposits − withdrawals`." }),
    ggr: changeSchema.meta({
      description: "Gross gaming revenue, `bets − wins` (completed), the house's view.",
    }),
    days_since_last_deposit: z.number().int().nullable().meta({
      description: "UTC days from the last day with a completed deposit to the portfolio's day; null: never.",
    }),
    days_since_last_activity: z.number().int().nullable().meta({
      description: "UTC days from the last day with any transaction to the portfolio's day; null: never.",
    }),
    pending_withdrawals: z
      .object({
        count: z.number().int(),
        amount: exactNumberSchema.meta({ description: "Sum of their absolute amounts." }),
        oldest: dateTimeSchema.nullable().meta({ description: "`date` of the oldest; null when none." }),
      })
      .meta({ id: "PortfolioPendingWithdrawals" }),
    largest_withdrawal_7d: exactNumberSchema.nullable().meta({
      description: "The largest withdrawal (absolute amount) in the 7 days up to `as_of`; null when none.",
    }),
    flags: z
      .array(portfolioFlagSchema)
      .meta({ description: "The flags this player trips, in a fixed order." }),
  })
  .meta({ id: "PortfolioPlayer" });

export type PortfolioPlayer = z.infer<typeof portfolioPlayerSchema>;

export const portfolioFlagRulesSchema = z
  .object({
    churn_days: z.number().int(),
    big_withdrawal_amounts: z.array(z.object({ currency: z.string(), amount: exactNumberSchema })).meta({
      description: "Per currency, the amount a withdrawal must exceed; other currencies have none.",
    }),
    big_withdrawal_percent: z.number().int(),
    deposit_spike_factor: z.number().int(),
  })
  .meta({
    id: "PortfolioFlagRules",
    description: "The thresholds the flags were computed with (configuration).",
  });

export type PortfolioFlagRules = z.infer<typeof portfolioFlagRulesSchema>;

export const portfolioResponseSchema = z
  .object({
    manager: z.string(),
    as_of: dateTimeSchema.meta({
      description:
        "The instant the windows end at: the server's clock (or its configured PORTFOLIO_AS_OF). Its UTC day is the portfolio's day.",
    }),
    flag_rules: portfolioFlagRulesSchema,
    players: z.array(portfolioPlayerSchema),
  })
  .meta({
    id: "Portfolio",
    description:
      "A VIP manager's players (profiles whose `vip_manager` is `manager`), ordered by id (byte order), each with its 30-day figures against the 30 days before, recency, pending withdrawals and flags. Exact: the flows come from the per-day statistics the database keeps current, whole UTC days.",
  });

export type Portfolio = z.infer<typeof portfolioResponseSchema>;

export const portfolioManagersQuerySchema = z.strictObject({}).meta({ id: "PortfolioManagersQuery" });

/** The managers and the size of their books (for an admin's choice of book). */
export const portfolioManagersResponseSchema = z
  .object({
    managers: z.array(
      z
        .object({ name: z.string(), players: z.number().int() })
        .meta({ id: "PortfolioManager", description: "A `vip_manager` value and how many players name it." }),
    ),
  })
  .meta({ id: "PortfolioManagers", description: "Every VIP manager named on a profile, by name." });

export type PortfolioManagers = z.infer<typeof portfolioManagersResponseSchema>;
