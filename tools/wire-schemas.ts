import type { z } from "zod";
import { auditListResponseSchema, auditLogResponseSchema } from "../features/audit/schema/audit.ts";
import { monthlyActivityResponseSchema } from "../features/players/schema/activity.ts";
import { playerProfileSchema, playerSearchResponseSchema } from "../features/players/schema/player.ts";
import { playerSummarySchema } from "../features/players/schema/summary.ts";
import {
  portfolioManagersResponseSchema,
  portfolioResponseSchema,
} from "../features/portfolio/schema/portfolio.ts";
import { transactionListResponseSchema } from "../features/transactions/schema/transaction.ts";
import { transactionFacetsSchema } from "../features/transactions/schema/transaction-facets.ts";
import { transactionTotalsSchema } from "../features/transactions/schema/transaction-totals.ts";

/**
 * The responses the pages read, by the name platform/client/wire-decimals.ts files each one's decimals under (the
 * browser gets that table, not the schemas: `npx tsx tools/wire-decimals.ts` writes it, a test checks it).
 */
export const WIRE_SCHEMAS = {
  playerProfile: playerProfileSchema,
  playerSearch: playerSearchResponseSchema,
  playerSummary: playerSummarySchema,
  transactionList: transactionListResponseSchema,
  transactionFacets: transactionFacetsSchema,
  transactionTotals: transactionTotalsSchema,
  monthlyActivity: monthlyActivityResponseSchema,
  auditList: auditListResponseSchema,
  auditLog: auditLogResponseSchema,
  portfolio: portfolioResponseSchema,
  portfolioManagers: portfolioManagersResponseSchema,
} as const satisfies Record<string, z.ZodType>;

export type WireName = keyof typeof WIRE_SCHEMAS;
