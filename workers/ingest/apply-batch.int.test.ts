import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  parseWalletPlayer,
  parseWalletTransaction,
  type WalletTransactionEvent,
} from "@/features/live/schema/wallet-events";
import { REFRESH_PLAYER_AGGREGATES_SQL, wageringBetsSql } from "@/platform/db/refresh-player-aggregates";
import { freshTestDatabase } from "../../test/support/fresh-test-database.ts";
import { eventJson } from "../../test/support/publisher.ts";
import { WalletSim } from "../../test/support/wallet-sim.ts";
import { applyBatch } from "./apply-batch.ts";

/*
 * The incremental update of one batch against the full recompute, after EVERY batch: an end-state comparison
 * (test/live/ingest.int.test.ts) can miss a figure that one batch gets wrong and a later batch of the same player
 * overwrites (e.g. active_bonus read from the bonus balance before the batch's grant).
 */

const DERIVED = `cash_balance, bonus_balance, total_balance, pending_withdrawal, withdrawable_balance, ltd, ltw,
  ltnc, ftd_date, active_bonus, wr, last_deposit_amount, last_deposit_date, last_withdrawal_amount,
  last_withdrawal_date, last_withdrawal_status`;

async function derivedFigures(client: pg.ClientBase) {
  const { rows } = await client.query(`SELECT id, ${DERIVED} FROM players ORDER BY id`);
  return rows;
}

/** The consumer's running sums of bets since the grant (wr_bets): how many are kept, and how many disagree. */
async function runningSums(client: pg.ClientBase) {
  const { rows } = await client.query<{ kept: number; wrong: number }>(`
    SELECT count(*)::int AS kept,
      count(*) FILTER (WHERE p.wr_bets <> ${wageringBetsSql("p.id", "p.wr_grant_date")})::int AS wrong
    FROM players p WHERE p.wr_grant_date IS NOT NULL`);
  return rows[0];
}

/** The players' figures as the full recompute derives them, read inside a transaction that is rolled back. */
async function recomputedFigures(client: pg.ClientBase) {
  await client.query("BEGIN");
  try {
    await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [null]);
    return await derivedFigures(client);
  } finally {
    await client.query("ROLLBACK");
  }
}

/** The simulation's next `size` transaction events, one per id (its highest version), as the consumer batches. */
function nextBatch(sim: WalletSim, clock: { now: number }, size: number): WalletTransactionEvent[] {
  const byId = new Map<string, WalletTransactionEvent>();
  while (byId.size < size) {
    clock.now += 50;
    for (const e of sim.step(clock.now)) {
      if (e.subject !== "wallet.transaction") continue;
      const parsed = parseWalletTransaction(eventJson(e));
      if (!parsed.ok) throw new Error(parsed.reason);
      const held = byId.get(parsed.value.id);
      if (!held || held.version < parsed.value.version) byId.set(parsed.value.id, parsed.value);
    }
  }
  return [...byId.values()];
}

describe("applyBatch: each batch leaves every player as the full recompute would", () => {
  let db: { url: string; stop(): Promise<void> };
  let client: pg.Client;

  beforeAll(async () => {
    db = await freshTestDatabase(inject("databaseKind"), "apply_batch");
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await db?.stop();
  });

  it("after each of 40 small batches (grants, bets, settlements, failures), figures equal the recompute", async () => {
    const sim = new WalletSim({ players: 4, prefix: "A", seed: 11, settleMs: [100, 2_000] });
    const players = sim.playerEvents().map((e) => {
      const parsed = parseWalletPlayer(eventJson(e));
      if (!parsed.ok) throw new Error(parsed.reason);
      return parsed.value;
    });
    await client.query("BEGIN");
    await applyBatch(client, { players, transactions: [], progress: null });
    await client.query("COMMIT");
    const clock = { now: Date.now() };
    const seen = new Set<string>();
    let movedSums = 0;
    for (let batch = 0; batch < 40; batch++) {
      const transactions = nextBatch(sim, clock, 12);
      for (const t of transactions) seen.add(`${t.event_type}:${t.status}`);
      await client.query("BEGIN");
      await applyBatch(client, { players: [], transactions, progress: null });
      await client.query("COMMIT");
      const sums = await runningSums(client);
      expect(sums?.wrong, `after batch ${batch}`).toBe(0);
      movedSums += sums?.kept ?? 0;
      expect(await derivedFigures(client), `after batch ${batch}`).toEqual(await recomputedFigures(client));
    }
    // wr came from the running sums, not only from reading the bets whole.
    expect(movedSums).toBeGreaterThan(40);
    // The run covers what the figures depend on: grants, bets, settled and failed money movements.
    expect([...seen]).toEqual(
      expect.arrayContaining(["bonus:completed", "bet:completed", "deposit:completed", "deposit:pending"]),
    );
  });
});
