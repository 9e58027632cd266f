import { getPlayerMonthlyActivity } from "@/features/players/data/get-player-monthly-activity";
import { getPlayerSummary } from "@/features/players/data/get-player-summary";
import { monthlyActivityQuerySchema } from "@/features/players/schema/activity";
import { summaryQuerySchema } from "@/features/players/schema/summary";
import { type TransactionFilters, transactionFacetsQuerySchema } from "@/features/transactions";
import { getPlayerTransactionFacets, sumPlayerTransactions } from "@/features/transactions/server";
import type { PrismaClient } from "@/platform/db/generated/client";
import { playerIdSchema } from "@/platform/schemas/common";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/* A player's figures: reads of the player named in the path that hold no contact data (nothing to mask). */

const params = { playerId: playerIdSchema };

/** GET /players/{playerId}/monthly-activity: completed flows per UTC month. */
export const monthlyActivityRead = defineRead({
  params,
  query: monthlyActivityQuerySchema,
  run: async function monthlyActivityRead({ params: { playerId }, query, db }) {
    const options = { playerId, months: query.months, toMonth: query.to_month };
    const body = await getPlayerMonthlyActivity(options, db);
    return { body, audit: { operation: "monthly_activity", playerId } };
  },
});

/** GET /players/{playerId}/summary: the figures of a period and of the one before. */
export const playerSummaryRead = defineRead({
  params,
  query: summaryQuerySchema,
  run: async function playerSummaryRead({ params: { playerId }, query: { period }, db }) {
    const body = await getPlayerSummary({ playerId, period }, db);
    return { body, audit: { operation: "summary", playerId } };
  },
});

/**
 * A read of the player's transactions under the list's filters: `read` is the data function (named, so CPU
 * profiles show which read ran), `operation` its audit row.
 */
function underFilters<B>(
  operation: "transaction_facets" | "transaction_totals",
  read: (options: { playerId: string; filters: TransactionFilters }, db: PrismaClient) => Promise<B>,
) {
  return defineRead({
    params,
    query: transactionFacetsQuerySchema,
    run: async ({ params: { playerId }, query: filters, db }) => ({
      body: await read({ playerId, filters }, db),
      audit: { operation, playerId },
    }),
  });
}

/** GET /players/{playerId}/transaction-facets: the filter values, each counted under the other filters. */
export const transactionFacetsRead = underFilters("transaction_facets", getPlayerTransactionFacets);

/** GET /players/{playerId}/transaction-totals: the count and sum per currency under the filters. */
export const transactionTotalsRead = underFilters("transaction_totals", sumPlayerTransactions);
