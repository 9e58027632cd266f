import { createRng } from "@/prisma/demo-data/random";

/*
 * How many transactions each generated player gets, summing to exactly `transactions`, skewed like real
 * traffic: one whale with 12% of all transactions, a few heavy players (about one in a thousand) sharing
 * another 25%, and a long tail sharing the rest unevenly; every 23rd player registered and never played.
 */
export const WHALE_SHARE = 0.12;
export const HEAVY_SHARE = 0.25;

export function planTransactionCounts(players: number, transactions: number, seed: number): number[] {
  if (!Number.isInteger(players) || players < 1) throw new RangeError("players must be a whole number ≥ 1");
  if (!Number.isInteger(transactions) || transactions < 0)
    throw new RangeError("transactions must be a whole number ≥ 0");
  const rng = createRng(seed ^ 0x5eed_c0de);
  const whale = players >= 7 ? 7 : 1; // player 7 is the whale, as in the demo data
  const heavyCount = Math.max(1, Math.round(players / 1_000));
  const heavy = new Set<number>();
  // Heavy players spread over the id range, never the whale.
  for (let i = 0; heavy.size < Math.min(heavyCount, players - 1); i++) {
    const n = 1 + ((i * 7_919 + 3) % players);
    if (n !== whale) heavy.add(n);
    if (i > players * 2) break;
  }
  const weights = new Float64Array(players + 1);
  let heavyWeight = 0;
  let tailWeight = 0;
  let rank = 1;
  for (let n = 1; n <= players; n++) {
    if (n === whale) continue;
    if (heavy.has(n)) {
      weights[n] = 1 / rank++; // Zipf among the heavy ones
      heavyWeight += weights[n] ?? 0;
    } else if (n % 23 !== 0) {
      // Long tail: most players have a few transactions, some a few hundred.
      weights[n] = 0.05 + rng.next() ** 3;
      tailWeight += weights[n] ?? 0;
    }
  }
  // With few heavy players their share shrinks, so that the whale stays the largest.
  const heavyShare =
    heavyWeight > 0 ? (tailWeight > 0 ? Math.min(HEAVY_SHARE, heavy.size * 0.06) : 1 - WHALE_SHARE) : 0;
  const tailShare = tailWeight > 0 ? 1 - WHALE_SHARE - heavyShare : 0;
  const counts = new Array<number>(players + 1).fill(0);
  let assigned = 0;
  for (let n = 1; n <= players; n++) {
    if (n === whale) continue;
    const w = weights[n] ?? 0;
    const share = heavy.has(n)
      ? (heavyShare * w) / heavyWeight
      : tailWeight > 0
        ? (tailShare * w) / tailWeight
        : 0;
    const c = Math.floor(transactions * share);
    counts[n] = c;
    assigned += c;
  }
  counts[whale] = transactions - assigned; // the rounding remainder makes the whale a little bigger
  return counts;
}
