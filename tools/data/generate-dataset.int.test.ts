import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "@/platform/db/refresh-player-aggregates";
import { freshTestDatabase } from "../../test/support/fresh-test-database.ts";
import { BENCH_BOOK_MANAGER, benchBook, generateDataset } from "./generate-dataset.ts";

const PLAYERS = 60;
const TRANSACTIONS = 6_000;

let db: { url: string; stop(): Promise<void> };
// The embedded database cannot COPY FROM STDIN over its socket: the generator falls back to INSERTs.
const copy = inject("databaseKind") === "postgres";
let client: pg.Client;

beforeAll(async () => {
  db = await freshTestDatabase(inject("databaseKind"), "gen");
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await db?.stop();
});

/** The whole content of a table as one fingerprint (every column, in key order). */
async function fingerprint(table: string, order: string): Promise<string> {
  const { rows } = await client.query<{ f: string | null; n: string }>(
    `SELECT md5(string_agg((to_jsonb(t) - 'updated_at')::text, '|' ORDER BY ${order})) AS f, count(*) AS n FROM ${table} t`,
  );
  return `${rows[0]?.n}:${rows[0]?.f}`;
}
const players = () => fingerprint("players", "id");
const transactions = () => fingerprint("transactions", "id");
const STATS_ORDER = "player_id, day, event_type, event_name, created_by";

describe("generateDataset", () => {
  it("loads exactly N players and M transactions, skewed: the largest player holds at least 10%", async () => {
    const result = await generateDataset(client, {
      players: PLAYERS,
      transactions: TRANSACTIONS,
      seed: 1,
      copy,
    });
    expect(result).toMatchObject({ players: PLAYERS, transactions: TRANSACTIONS });
    const { rows } = await client.query<{ player_id: string; n: number }>(
      "SELECT player_id, count(*)::int AS n FROM transactions GROUP BY player_id ORDER BY n DESC",
    );
    expect(rows.reduce((s, r) => s + r.n, 0)).toBe(TRANSACTIONS);
    expect(rows[0]?.n).toBeGreaterThanOrEqual(TRANSACTIONS / 10);
    expect(rows[0]?.player_id).toBe(result.largest.playerId);
    // A long tail: the median player with transactions has far fewer than the largest.
    const median = rows[Math.floor(rows.length / 2)]?.n ?? 0;
    expect(median * 10).toBeLessThan(rows[0]?.n ?? 0);
    const count = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM players");
    expect(count.rows[0]?.n).toBe(PLAYERS);
  });

  it("gives the benchmark manager a book of the whale and every (N / size)-th player", async () => {
    const result = await generateDataset(client, {
      players: PLAYERS,
      transactions: TRANSACTIONS,
      seed: 1,
      bookSize: 10,
      copy,
    });
    const { rows } = await client.query<{ id: string }>(
      "SELECT id FROM players WHERE vip_manager = $1 ORDER BY id",
      [BENCH_BOOK_MANAGER],
    );
    expect(rows).toHaveLength(10);
    expect(rows.map((r) => r.id)).toContain(result.largest.playerId);
    expect(benchBook([0, 5, 9, 1, 2, 3, 4, 1, 1, 1, 1], 10, 3)).toEqual(new Set([2, 3, 6]));
    expect(benchBook([0, 1], 1, 0).size).toBe(0);
    // The tests after this one start from the default data set again.
    await generateDataset(client, { players: PLAYERS, transactions: TRANSACTIONS, seed: 1, copy });
  });

  it("leaves transaction_daily_stats equal to a fresh GROUP BY of the transactions", async () => {
    const { rows } = await client.query<{ diff: number; n: number }>(
      `WITH fresh AS (
         SELECT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type, event_name, created_by,
                count(*)::int AS n, (count(*) FILTER (WHERE status = 'completed'))::int AS completed_n,
                (count(*) FILTER (WHERE status = 'failed'))::int AS failed_n,
                (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled_n,
                COALESCE(sum(abs(amount)) FILTER (WHERE status = 'completed'), 0) AS completed_amount
         FROM transactions GROUP BY 1, 2, 3, 4, 5),
       kept AS (
         SELECT player_id, day, event_type, event_name, created_by, n, completed_n, failed_n, cancelled_n,
                completed_amount FROM transaction_daily_stats)
       SELECT (SELECT count(*) FROM (SELECT * FROM fresh EXCEPT SELECT * FROM kept
                 UNION ALL SELECT * FROM kept EXCEPT SELECT * FROM fresh) d)::int AS diff,
              (SELECT count(*) FROM transaction_daily_stats)::int AS n`,
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    expect(rows[0]?.diff).toBe(0);
  });

  it("leaves every profile equal to a fresh derivation from its transactions", async () => {
    const before = await players();
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM players WHERE ltd > 0 AND total_balance = cash_balance + bonus_balance",
    );
    expect(rows[0]?.n).toBeGreaterThan(PLAYERS / 2);
    await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [null]);
    expect(await players()).toBe(before);
  });

  it("restores indexes, keys, the foreign key and the stats trigger", async () => {
    const indexes = await client.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE tablename IN ('transactions', 'transaction_daily_stats') ORDER BY 1",
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      "transaction_daily_stats_counts_idx",
      "transaction_daily_stats_flows_idx",
      "transaction_daily_stats_pkey",
      "transaction_daily_stats_window_idx",
      "transactions_bonus_grants_idx",
      "transactions_id_lower_idx",
      "transactions_pending_withdrawals_idx",
      "transactions_pkey",
      "transactions_player_abs_amount_id_idx",
      "transactions_player_creator_date_id_idx",
      "transactions_player_date_id_idx",
      "transactions_player_name_date_id_idx",
      "transactions_player_type_abs_amount_id_idx",
      "transactions_player_type_date_id_idx",
      "transactions_player_updated_at_idx",
      "transactions_updated_at_id_idx",
      "transactions_wagering_bets_idx",
    ]);
    const fk = await client.query(
      "SELECT 1 FROM pg_constraint WHERE conname = 'transactions_player_id_fkey'",
    );
    expect(fk.rowCount).toBe(1);
    const trigger = await client.query<{ tgenabled: string }>(
      "SELECT tgenabled FROM pg_trigger WHERE tgname = 'transactions_daily_stats_insert'",
    );
    expect(trigger.rows[0]?.tgenabled).toBe("O");
  });

  it("is deterministic: the same seed gives the same rows, another seed other rows", async () => {
    const first = [
      await players(),
      await transactions(),
      await fingerprint("transaction_daily_stats", STATS_ORDER),
    ];
    await generateDataset(client, { players: PLAYERS, transactions: TRANSACTIONS, seed: 2, copy });
    const other = await transactions();
    await generateDataset(client, { players: PLAYERS, transactions: TRANSACTIONS, seed: 1, copy });
    const again = [
      await players(),
      await transactions(),
      await fingerprint("transaction_daily_stats", STATS_ORDER),
    ];
    expect(again).toEqual(first);
    expect(other).not.toBe(first[1]);
  });

  it("replaces what was there, and works without COPY too", async () => {
    const viaCopy = [await players(), await transactions()];
    await generateDataset(client, { players: PLAYERS, transactions: TRANSACTIONS, seed: 1, copy: false });
    expect([await players(), await transactions()]).toEqual(viaCopy);
  });
});
