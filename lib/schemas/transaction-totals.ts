import { z } from "zod";
import { exactNumberSchema } from "./common.ts";

export const transactionTotalsSchema = z
  .object({
    player_id: z.string(),
    count: z
      .number()
      .int()
      .meta({ description: "Number of the player's transactions matching every filter." }),
    by_currency: z
      .array(
        z.object({
          currency: z.string(),
          count: z.number().int().meta({ description: "Matching transactions in this currency." }),
          sum: exactNumberSchema.meta({
            description:
              "Sum of their signed `amount`s, exact: money in minus money out from the player's point of view (deposits and wins add, withdrawals and bets subtract).",
          }),
        }),
      )
      .meta({
        description: "One entry per currency the matches are in, by currency code; empty when none match.",
      }),
  })
  .meta({
    id: "TransactionTotals",
    description:
      "The totals of a player's transactions under the list's filters, exact. Whole UTC days of completed deposits, withdrawals, bets and wins are summed from the per-day statistics the database keeps current (attributed to the player's currency, as the period summary is); any other filter (pending, bonus, adjustment, refund, an id) and the partial days at a range's ends are summed row by row.",
  });

export type TransactionTotals = z.infer<typeof transactionTotalsSchema>;
