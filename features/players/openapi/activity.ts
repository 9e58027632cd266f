import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  monthlyActivityQuerySchema,
  monthlyActivityResponseSchema,
} from "@/features/players/schema/activity";
import { playerSummarySchema, summaryQuerySchema } from "@/features/players/schema/summary";
import { SCOPES } from "@/platform/auth/scopes";
import { ok, playerPath, readHeaders, readResponses, requires } from "@/platform/openapi/operation-parts";

/*
 * A player's figures: the monthly activity and the period summary. The keys' order is their order in the
 * document.
 */

const getPlayerMonthlyActivity = {
  operationId: "getPlayerMonthlyActivity",
  tags: ["Players"],
  summary: "Get a player's deposits, withdrawals, bets and wins per month",
  description:
    "An addition to the spec for the back-office activity chart: completed transactions per UTC calendar month, by transaction `date`, for `months` months ending with `to_month` (default: the last 12 months including the current one).",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: monthlyActivityQuerySchema, header: readHeaders },
  responses: readResponses(
    ok("One entry per month, oldest first.", monthlyActivityResponseSchema),
    "Invalid playerId, months or to_month, or an unknown parameter.",
    { player: true },
  ),
} satisfies ZodOpenApiOperationObject;

const getPlayerPeriodSummary = {
  operationId: "getPlayerPeriodSummary",
  tags: ["Players"],
  summary: "Get a player's figures for a period",
  description:
    "An addition to the spec for the back-office player page: for the last 30, 90 or 365 UTC days (today included) or all time, completed deposits and withdrawals (count, sum, average), net deposits, bets, wins, gross gaming revenue (`bets − wins`, positive when the house won), bonus grants, and the first and last activity. Exact: counted from the per-day statistics, whole UTC days only.",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: summaryQuerySchema, header: readHeaders },
  responses: readResponses(
    ok("The player's figures for the period.", playerSummarySchema),
    "Invalid playerId or period, or an unknown parameter.",
    { player: true },
  ),
} satisfies ZodOpenApiOperationObject;

export const activityPaths = {
  "/players/{playerId}/monthly-activity": { get: getPlayerMonthlyActivity },
  "/players/{playerId}/summary": { get: getPlayerPeriodSummary },
} satisfies ZodOpenApiPathsObject;
