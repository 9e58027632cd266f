import { parseAsString, parseAsStringLiteral } from "nuqs/server";
import { toUnits } from "@/platform/format/exact-decimal";
import { PORTFOLIO_FLAGS, type PortfolioFlag } from "@/platform/schemas/enums";
import type { PortfolioData, PortfolioPlayerData } from "./queries.ts";

/** The portfolio's columns that sort, in the table's order. */
export const PORTFOLIO_SORTS = [
  "player",
  "flags",
  "balance",
  "deposits",
  "withdrawals",
  "net_deposits",
  "ggr",
  "pending",
  "last_deposit",
  "last_activity",
] as const;
export type PortfolioSort = (typeof PORTFOLIO_SORTS)[number];
export const DIRECTIONS = ["asc", "desc"] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const SORT_LABELS: Record<PortfolioSort, string> = {
  player: "Player",
  balance: "Balance",
  deposits: "Deposits (30 days)",
  withdrawals: "Withdrawals (30 days)",
  net_deposits: "Net deposits (30 days)",
  ggr: "GGR (30 days)",
  last_deposit: "Days since last deposit",
  last_activity: "Days since last activity",
  pending: "Pending withdrawals",
  flags: "Flags",
};

/** Which way a column sorts first: figures largest first, names A to Z. */
export const FIRST_DIRECTION: Record<PortfolioSort, Direction> = {
  player: "asc",
  balance: "desc",
  deposits: "desc",
  withdrawals: "desc",
  net_deposits: "desc",
  ggr: "desc",
  last_deposit: "desc",
  last_activity: "desc",
  pending: "desc",
  flags: "desc",
};

/**
 * The portfolio view's state in the URL (shared links, reload, back/forward): `manager` (an admin's choice of
 * book), `sort` and `dir`, and `flag` (only players tripping it). Defaults stay out of the URL.
 */
export const portfolioSearchParams = {
  manager: parseAsString,
  sort: parseAsStringLiteral(PORTFOLIO_SORTS).withDefault("flags"),
  dir: parseAsStringLiteral(DIRECTIONS).withDefault("desc"),
  flag: parseAsStringLiteral(PORTFOLIO_FLAGS),
};

export const FLAG_LABELS: Record<PortfolioFlag, string> = {
  churn_risk: "Churn risk",
  big_withdrawal: "Big withdrawal",
  pending_withdrawal_24h: "Withdrawal pending > 24\u00a0h",
  deposit_spike: "Deposit spike",
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Each flag in plain words, with the thresholds the server used (the response's flag_rules). With `currency` (a
 * player's badge) the big-withdrawal amount is that currency's; without (the filter) one example stands for all.
 */
export function flagDescription(
  flag: PortfolioFlag,
  rules: PortfolioData["flag_rules"],
  currency?: string,
): string {
  switch (flag) {
    case "churn_risk":
      return `No deposit, bet or any other transaction for ${plural(rules.churn_days, "day", "days")} or more, after having played before.`;
    case "big_withdrawal": {
      const share = `above ${rules.big_withdrawal_percent}% of what the player held before it`;
      const own = currency
        ? rules.big_withdrawal_amounts.find((a) => a.currency === currency.toUpperCase())
        : null;
      const example = rules.big_withdrawal_amounts[0];
      const byAmount = own
        ? `above ${own.amount} ${own.currency}, or `
        : !currency && example
          ? `above the amount set for its currency (${example.amount} ${example.currency}, …), or `
          : "";
      return `A withdrawal in the last 7 days ${byAmount}${share}.`;
    }
    case "pending_withdrawal_24h":
      return "A withdrawal requested more than 24 hours ago is still pending.";
    case "deposit_spike":
      return `Deposits of the last 7 days are over ${rules.deposit_spike_factor}× the player's usual week (the weekly average of the 12 weeks before).`;
  }
}

/** Compares two exact decimal strings (the API's, up to 8 places) without binary floating point: −1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  return compareValues(toUnits(a), toUnits(b));
}

/** An amount as integer units of 10⁻⁸ (exact, cheap to compare), a name, or a count. */
type SortValue = bigint | number | string;

/**
 * What a column sorts by, worked out once per row rather than at every comparison (a book of 1,000 players makes
 * ~10,000 comparisons); null (never, none) always goes last, whichever the direction.
 */
function sortValue(p: PortfolioPlayerData, sort: PortfolioSort): SortValue | null {
  switch (sort) {
    case "player":
      return p.name;
    case "balance":
      return toUnits(p.total_balance);
    case "deposits":
      return toUnits(p.deposits.current);
    case "withdrawals":
      return toUnits(p.withdrawals.current);
    case "net_deposits":
      return toUnits(p.net_deposits.current);
    case "ggr":
      return toUnits(p.ggr.current);
    case "last_deposit":
      return p.days_since_last_deposit;
    case "last_activity":
      return p.days_since_last_activity;
    case "pending":
      return p.pending_withdrawals.count;
    case "flags":
      return p.flags.length;
  }
}

const collator = new Intl.Collator("en");

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === "string" || typeof b === "string") return collator.compare(String(a), String(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The rows in the chosen order; ties (and rows without a value, last) keep the id order. Amounts compare as the
 * numbers they are, in each player's own currency: no conversion (the table says so).
 */
export function sortPortfolio(
  players: readonly PortfolioPlayerData[],
  sort: PortfolioSort,
  dir: Direction,
): PortfolioPlayerData[] {
  const sign = dir === "asc" ? 1 : -1;
  const rows = players.map((player) => ({ player, value: sortValue(player, sort) }));
  const byId = (x: PortfolioPlayerData, y: PortfolioPlayerData) => collator.compare(x.id, y.id);
  rows.sort((x, y) => {
    if (x.value === null || y.value === null)
      return x.value === y.value ? byId(x.player, y.player) : x.value === null ? 1 : -1;
    return sign * compareValues(x.value, y.value) || byId(x.player, y.player);
  });
  return rows.map((row) => row.player);
}

export function filterPortfolio(
  players: readonly PortfolioPlayerData[],
  flag: PortfolioFlag | null,
): PortfolioPlayerData[] {
  return flag ? players.filter((p) => p.flags.includes(flag)) : [...players];
}

/** How many players trip each flag (the filter's counts). */
export function flagCounts(players: readonly PortfolioPlayerData[]): Record<PortfolioFlag, number> {
  const counts = Object.fromEntries(PORTFOLIO_FLAGS.map((f) => [f, 0])) as Record<PortfolioFlag, number>;
  for (const p of players) for (const f of p.flags) counts[f]++;
  return counts;
}

/** "today", "1 day ago", "12 days ago", or "never". */
export function daysAgo(days: number | null): string {
  if (days === null) return "never";
  if (days === 0) return "today";
  return `${plural(days, "day", "days")} ago`;
}

/** The next sort after a click on a column's heading: its first direction, then the other way. */
export function nextSort(
  current: { sort: PortfolioSort; dir: Direction },
  clicked: PortfolioSort,
): { sort: PortfolioSort; dir: Direction } {
  if (current.sort !== clicked) return { sort: clicked, dir: FIRST_DIRECTION[clicked] };
  return { sort: clicked, dir: current.dir === "asc" ? "desc" : "asc" };
}
