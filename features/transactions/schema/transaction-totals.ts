import { z } from "zod";
import { exactNumberSchema } from "../../../platform/schemas/common.ts";

const statusTotalSchema = (status: string, what: string) =>
  z.object({
    count: z
      .number()
      .int()
      .meta({ description: `Matching \`${status}\` transactions in this currency.` }),
    sum: exactNumberSchema.meta({ description: `Sum of their signed \`amount\`s, exact: ${what}` }),
  });

const byStatusSchema = z
  .object({
    completed: statusTotalSchema("completed", "the money that moved; equals this currency's `sum`."),
    pending: statusTotalSchema("pending", "requested, not moved yet; not in `sum`."),
    failed: statusTotalSchema("failed", "attempted, never moved; not in `sum`."),
    cancelled: statusTotalSchema("cancelled", "attempted, never moved; not in `sum`."),
  })
  .meta({
    id: "TransactionTotalsByStatus",
    description:
      "The matches of this currency split by `status`, every status present (zeros included), so a filter on `failed` still says what was attempted. The four counts add up to `count`.",
  });

export const transactionTotalsSchema = z
  .object({
    player_id: z.string(),
    count: z.number().int().meta({
      description: "Number of the player's transactions matching every filter, whatever their status.",
    }),
    by_currency: z
      .array(
        z.object({
          currency: z.string(),
          count: z
            .number()
            .int()
            .meta({ description: "Matching transactions in this currency, whatever their status." }),
          sum: exactNumberSchema.meta({
            description:
              "Sum of the signed `amount`s of the **completed** matches only, exact: the money that moved, in minus out from the player's point of view (deposits and wins add, withdrawals and bets subtract). Pending, failed and cancelled matches moved no money and are not in it (their sums are in `by_status`); 0 when no match is completed.",
          }),
          by_status: byStatusSchema,
        }),
      )
      .meta({
        description: "One entry per currency the matches are in, by currency code; empty when none match.",
      }),
  })
  .meta({
    id: "TransactionTotals",
    description:
      "The totals of a player's transactions under the list's filters, exact. `count` counts every match; `sum` adds only completed transactions, the one status whose money moved (a pending one has not moved yet, a failed or cancelled one never will): the same rule as the summary, the monthly activity, the portfolio's figures and the `ltd` / `ltw` KPIs. `by_status` gives each status's count and sum beside it. Whole UTC days of completed deposits, withdrawals, bets and wins are summed from the per-day statistics the database keeps current (attributed to the player's currency, as the period summary is); any other filter (no status, pending, failed, cancelled, bonus, adjustment, refund, an id) and the partial days at a range's ends are summed row by row.",
  });

export type TransactionTotals = z.infer<typeof transactionTotalsSchema>;
export type TransactionStatusTotals = TransactionTotals["by_currency"][number]["by_status"];
