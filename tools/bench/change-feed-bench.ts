/*
 * npm run bench:changes: what the change feed costs its writers, on a database of its own on the local
 * PostgreSQL (docs/decisions.md, "The change feed"):
 *   1. db:generate of --players / --transactions with the feed's row triggers paused after the TRUNCATE (as
 *      shipped) and kept on (one coarse entry per player per statement, updated_at stamped by the trigger);
 *   2. the live consumer's batches (lib/ingest/apply-batch.ts, --batches of 1,000 events: new transactions and
 *      completions of earlier ones) with the feed's triggers on and off: events per second.
 * Figures on a shared machine vary: the run prints them (median of --runs), it asserts nothing.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { changeFeedTriggersSql } from "@/lib/db/change-feed-triggers";
import { applyMigrations } from "@/lib/db/schema-engine";
import { applyBatch } from "@/lib/ingest/apply-batch";
import { parseWalletTransaction, type WalletTransactionEvent } from "@/lib/schemas/wallet-events";
import { dropPostgresDatabase, recreatePostgresDatabase } from "../../test/support/test-db.ts";
import { generateDataset } from "../data/generate-dataset.ts";
import { median } from "../median.ts";

const { values } = parseArgs({
  options: {
    players: { type: "string", default: "20000" },
    transactions: { type: "string", default: "1000000" },
    batches: { type: "string", default: "40" },
    runs: { type: "string", default: "3" },
  },
});
const runs = Number(values.runs);

function event(
  id: string,
  playerId: string,
  status: "pending" | "completed",
  version: number,
): WalletTransactionEvent {
  const at = "2026-11-20T12:00:00.000Z";
  const line = JSON.stringify({
    id,
    player_id: playerId,
    date: at,
    event_type: "withdrawal",
    event_name: "Bank Withdrawal",
    event_note: null,
    amount: -1,
    currency: "EUR",
    payment_method: "Visa",
    created_by: "System",
    created_at: at,
    completed_at: status === "completed" ? at : null,
    status,
    version,
  });
  const parsed = parseWalletTransaction(line);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

/** --batches batches of 1,000: 500 new pending withdrawals and the completion of the previous batch's 500. */
async function ingestRate(client: pg.ClientBase, tag: string): Promise<number> {
  const batches = Number(values.batches);
  const started = performance.now();
  for (let b = 0; b < batches; b++) {
    const transactions: WalletTransactionEvent[] = [];
    for (let i = 0; i < 500; i++) {
      const player = `P${String(1 + ((b * 500 + i) % 200)).padStart(6, "0")}`;
      transactions.push(event(`B${tag}-${b}-${i}`, player, "pending", 1));
      if (b > 0) transactions.push(event(`B${tag}-${b - 1}-${i}`, player, "completed", 2));
    }
    await client.query("BEGIN");
    await applyBatch(client, { players: [], transactions, progress: null });
    await client.query("COMMIT");
  }
  const events = batches * 500 + (batches - 1) * 500;
  return events / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const name = `${process.env.TEST_DB_PREFIX ?? "par"}_bench_changes`;
  const url = await recreatePostgresDatabase(name);
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const size = { players: Number(values.players), transactions: Number(values.transactions) };
    for (const pause of [true, false]) {
      const times: number[] = [];
      for (let r = 0; r < runs; r++) {
        const started = performance.now();
        await generateDataset(client, { ...size, pauseFeedTriggers: pause });
        times.push((performance.now() - started) / 1000);
      }
      const entries = await client.query<{ n: string }>("SELECT count(*) AS n FROM changes");
      console.log(
        `db:generate ${size.players} players / ${size.transactions} transactions, feed triggers ${pause ? "paused" : "on"}: median ${median(times).toFixed(1)} s (${times.map((t) => t.toFixed(1)).join(", ")}); change entries so far ${entries.rows[0]?.n}`,
      );
    }
    for (const feed of [true, false, true, false]) {
      for (const sql of changeFeedTriggersSql(feed ? "ENABLE" : "DISABLE")) await client.query(sql);
      const rates: number[] = [];
      for (let r = 0; r < runs; r++) rates.push(await ingestRate(client, `${feed}${r}${Math.random()}`));
      console.log(`ingest batches, feed ${feed ? "on" : "off"}: median ${median(rates).toFixed(0)} events/s`);
    }
    for (const sql of changeFeedTriggersSql("ENABLE")) await client.query(sql);
  } finally {
    await client.end();
    await dropPostgresDatabase(name);
  }
}

await main();
