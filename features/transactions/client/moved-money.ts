import type { TransactionData, TransactionTotalsData } from "./queries.ts";

type Status = TransactionData["status"];
type CurrencyTotals = TransactionTotalsData["by_currency"][number];

/**
 * Whether a transaction's money moved: `completed` did, `pending` not yet, `failed` and `cancelled` never will
 * (docs/decisions.md, "Money that moved"). The table mutes the amounts of the last two.
 */
export function moneyMoved(status: Status): "moved" | "not_yet" | "never" {
  if (status === "completed") return "moved";
  return status === "pending" ? "not_yet" : "never";
}

/** The statuses the totals' sum leaves out, in the order the totals row names them. */
const LEFT_OUT = ["pending", "failed", "cancelled"] as const;

/** A currency's matches that are not in its sum: each status with any, its count and signed sum. */
export function leftOutOfSum(
  c: CurrencyTotals,
): { status: (typeof LEFT_OUT)[number]; count: number; sum: string }[] {
  return LEFT_OUT.filter((s) => c.by_status[s].count > 0).map((s) => ({ status: s, ...c.by_status[s] }));
}
