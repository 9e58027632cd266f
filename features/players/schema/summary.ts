import { z } from "zod";
import { dateTimeSchema, exactNumberSchema } from "../../../platform/schemas/common.ts";
import { SUMMARY_PERIODS } from "../../../platform/schemas/enums.ts";

// Kept zod-free in enums.ts for the browser's bundle (the Overview's period control).
export { SUMMARY_PERIODS, type SummaryPeriod } from "../../../platform/schemas/enums.ts";

export const summaryQuerySchema = z
  .strictObject({
    period: z.enum(SUMMARY_PERIODS).default("30d").meta({
      description:
        "`30d`, `90d` or `365d`: the last 30, 90 or 365 UTC calendar days, today (UTC) included, so `30d` asked on 2026-11-20 covers 2026-10-22T00:00:00Z up to the end of 2026-11-20. `all`: the player's whole history. Default `30d`.",
    }),
  })
  .meta({ id: "PlayerPeriodSummaryQuery" });

/** The parts of a player's figures that the monthly activity (activity.ts) shares. */
export const countSchema = z.number().int().meta({ description: "Number of completed transactions." });
export const sumSchema = exactNumberSchema.meta({
  description: "Sum of their absolute amounts, in the player's currency (never negative).",
});
export const playerCurrencySchema = z
  .string()
  .meta({ description: "The player's currency: every amount is in it." });

const flowSchema = z.object({ count: countSchema, sum: sumSchema }).meta({ id: "PeriodSummaryFlow" });

const cashFlowSchema = z
  .object({
    count: countSchema,
    sum: sumSchema,
    average: exactNumberSchema.nullable().meta({
      description:
        "`sum / count` rounded half away from zero to 8 decimal places (the precision of amounts); null when `count` is 0.",
    }),
  })
  .meta({ id: "PeriodSummaryCashFlow" });

/** The figures of one period: the summary's own and, beside them, the previous period's. */
const periodFiguresShape = {
  from: dateTimeSchema
    .nullable()
    .meta({ description: "Start of the period (a UTC midnight, inclusive); null for `all`." }),
  to: dateTimeSchema.nullable().meta({
    description: "End of the period: the UTC midnight after its last day (exclusive); null for `all`.",
  }),
  deposits: cashFlowSchema,
  withdrawals: cashFlowSchema,
  net_deposits: exactNumberSchema.meta({
    description: "`deposits.sum − withdrawals.sum`: negative when the player took out more than they put in.",
  }),
  bets: flowSchema,
  wins: flowSchema,
  gross_gaming_revenue: exactNumberSchema.meta({
    description:
      "`bets.sum − wins.sum`, from the house's point of view: positive when the house won, negative when the player did.",
  }),
  bonus_granted: flowSchema.meta({
    description:
      "Completed `bonus` transactions that credited the player (positive `amount`): grants, not conversions or expiries.",
  }),
  first_activity: dateTimeSchema.nullable().meta({
    description:
      "`date` of the player's oldest transaction in the period, pending ones included; null when none.",
  }),
  last_activity: dateTimeSchema.nullable().meta({
    description:
      "`date` of the player's newest transaction in the period, pending ones included; null when none.",
  }),
};

export const periodFiguresSchema = z.object(periodFiguresShape).meta({
  id: "PeriodFigures",
  description:
    "The previous period's figures, defined as the summary's own: the period of the same length that ends where the summary's starts (for `30d` asked on 2026-11-20: 2026-09-22T00:00:00Z up to 2026-10-22T00:00:00Z). Exact, from the same per-day statistics.",
});

export type PeriodFigures = z.infer<typeof periodFiguresSchema>;

export const playerSummarySchema = z
  .object({
    player_id: z.string(),
    currency: playerCurrencySchema,
    period: z.enum(SUMMARY_PERIODS),
    ...periodFiguresShape,
    previous: periodFiguresSchema.nullable().meta({
      description:
        "The same figures for the previous period of the same length (the 30 days before these 30), to show each figure's change; null for `all`, which has no period before it.",
    }),
  })
  .meta({
    id: "PlayerPeriodSummary",
    description:
      "A player's figures for a period, by transaction `date`. Counts and sums cover completed transactions only (`completed_at` set), as the monthly activity and the `ltd` / `ltw` KPIs do: a pending deposit or withdrawal may still fail. Exact: read from the per-day statistics the database keeps current, and the period is whole UTC days, so no day is counted in part.",
  });

export type PlayerSummary = z.infer<typeof playerSummarySchema>;
