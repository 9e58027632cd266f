import { fromUnits, toUnits } from "@/platform/format/exact-decimal";
import { formatCount, formatMoney } from "@/platform/format/money";

export { subtractExact } from "@/platform/format/exact-decimal";

export type ChangeDirection = "up" | "down" | "same";

export interface PeriodChange {
  direction: ChangeDirection;
  /** What is shown: "+€120.00 (+12.5%) vs previous 30 days", "no change vs previous 30 days". */
  text: string;
}

/** The relative change for display, one decimal; null when the previous figure was zero (no base to divide). */
function percent(delta: bigint, previous: bigint): string | null {
  if (previous === 0n) return null;
  // Tenths of a percent, rounded half away from zero, in integers: exact for any size of figure.
  const base = previous < 0n ? -previous : previous;
  const scaled = delta * 1000n;
  const tenths = (scaled + (scaled < 0n ? -base / 2n : base / 2n)) / base;
  const abs = tenths < 0n ? -tenths : tenths;
  const text = `${abs / 10n}${abs % 10n === 0n ? "" : `.${abs % 10n}`}`;
  return `${tenths < 0n ? "−" : "+"}${text}%`;
}

function changeOf(delta: bigint, previous: bigint, shown: string, against: string): PeriodChange {
  if (delta === 0n) return { direction: "same", text: `no change vs ${against}` };
  const share = percent(delta, previous);
  return {
    direction: delta > 0n ? "up" : "down",
    text: `${shown}${share ? ` (${share})` : ""} vs ${against}`,
  };
}

/** A money figure's change against the previous period: the exact difference, signed, and its share. */
export function moneyChange(
  current: string,
  previous: string,
  currency: string,
  against: string,
): PeriodChange {
  const delta = toUnits(current) - toUnits(previous);
  const shown = formatMoney(fromUnits(delta), currency, { signed: true });
  return changeOf(delta, toUnits(previous), shown, against);
}

/** A count's change against the previous period. */
export function countChange(current: number, previous: number, against: string): PeriodChange {
  const delta = BigInt(current - previous);
  const shown = `${delta > 0n ? "+" : "−"}${formatCount(Math.abs(current - previous))}`;
  return changeOf(delta, BigInt(previous), shown, against);
}
