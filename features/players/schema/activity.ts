import { z } from "zod";
import { dateTimeSchema, exactNumberSchema, wholeNumberParam } from "../../../platform/schemas/common.ts";
import { countSchema, playerCurrencySchema, sumSchema } from "./summary.ts";

export const MAX_ACTIVITY_MONTHS = 36;
export const DEFAULT_ACTIVITY_MONTHS = 12;
export const MIN_TO_MONTH = "1900-01";
export const MAX_TO_MONTH = "9999-11";

/** The four flows the back office charts; each month reports every one of them, zeros included. */
export const ACTIVITY_FLOWS = ["deposits", "withdrawals", "bets", "wins"] as const;
export type ActivityFlow = (typeof ACTIVITY_FLOWS)[number];

export const monthlyActivityQuerySchema = z
  .strictObject({
    months: wholeNumberParam({ min: 1, max: MAX_ACTIVITY_MONTHS, default: DEFAULT_ACTIVITY_MONTHS }).meta({
      description: `How many calendar months to report, ending with \`to_month\`: 1 to ${MAX_ACTIVITY_MONTHS}.`,
      override: {
        type: "integer",
        minimum: 1,
        maximum: MAX_ACTIVITY_MONTHS,
        default: DEFAULT_ACTIVITY_MONTHS,
      },
    }),
    to_month: z
      .string()
      // 9999-12 is out: the response's `to` (the month after) would be year 10000, no longer an RFC 3339 date-time.
      .regex(
        /^(?!9999-12)(19|[2-9]\d)\d{2}-(0[1-9]|1[0-2])$/,
        `must be a month written YYYY-MM, from ${MIN_TO_MONTH} to ${MAX_TO_MONTH}`,
      )
      .optional()
      .meta({
        description: `The last month reported (UTC calendar month), from ${MIN_TO_MONTH} to ${MAX_TO_MONTH}. Default: the current month.`,
        param: { example: "2026-11" },
      }),
  })
  .meta({ id: "MonthlyActivityQuery" });

const flowTotalSchema = z.object({ count: countSchema, amount: sumSchema }).meta({ id: "ActivityTotal" });

export const monthlyActivitySchema = z
  .object({
    month: z.string().meta({ description: "UTC calendar month, `YYYY-MM`.", examples: ["2026-11"] }),
    deposits: flowTotalSchema,
    withdrawals: flowTotalSchema,
    bets: flowTotalSchema,
    wins: flowTotalSchema,
    net_deposits: exactNumberSchema.meta({
      description: "`deposits.amount − withdrawals.amount`, exact: negative when the player took out more.",
    }),
    gross_gaming_revenue: exactNumberSchema.meta({
      description: "`bets.amount − wins.amount`, exact, from the house's point of view.",
    }),
    partial: z.boolean().meta({
      description:
        "true for the month that holds the present instant (UTC): it is not over, its figures are to date. false for past (and future) months.",
    }),
  })
  .meta({ id: "MonthlyActivity" });

export type MonthlyActivity = z.infer<typeof monthlyActivitySchema>;

export const monthlyActivityResponseSchema = z
  .object({
    player_id: z.string(),
    currency: playerCurrencySchema,
    from: dateTimeSchema.meta({ description: "Start of the first month (inclusive)." }),
    to: dateTimeSchema.meta({ description: "Start of the month after the last one (exclusive)." }),
    months: z.array(monthlyActivitySchema).meta({
      description: "One entry per month, oldest first, months without activity included with zeros.",
    }),
  })
  .meta({
    id: "PlayerMonthlyActivity",
    description:
      "Completed deposits, withdrawals, bets and wins per UTC calendar month (by transaction `date`). Pending transactions are left out, so deposits and withdrawals add up to the same figures as the `ltd` / `ltw` KPIs over the period.",
  });

export type MonthlyActivityResponse = z.infer<typeof monthlyActivityResponseSchema>;
