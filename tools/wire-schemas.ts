import type { z } from "zod";
import { monthlyActivityResponseSchema } from "../lib/schemas/activity.ts";
import { auditListResponseSchema, auditLogResponseSchema } from "../lib/schemas/audit.ts";
import { playerProfileSchema, playerSearchResponseSchema } from "../lib/schemas/player.ts";
import { portfolioManagersResponseSchema, portfolioResponseSchema } from "../lib/schemas/portfolio.ts";
import { playerSummarySchema } from "../lib/schemas/summary.ts";
import { transactionListResponseSchema } from "../lib/schemas/transaction.ts";
import { transactionFacetsSchema } from "../lib/schemas/transaction-facets.ts";
import { transactionTotalsSchema } from "../lib/schemas/transaction-totals.ts";

/**
 * The responses the pages read, by the name lib/client/wire-decimals.ts files each one's decimals under (the
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
