import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { exportNdjson } from "../../test/support/export-ndjson.ts";
import { freshTestDatabase } from "../../test/support/fresh-test-database.ts";
import { generateDataset } from "./generate-dataset.ts";
import { importNdjson } from "./import-ndjson.ts";

/*
 * A small generated data set is exported in the API's shapes, the tables emptied, and the files imported
 * back: the tables must come back exactly, balances and KPIs included (derived again from the transactions).
 */
let db: { url: string; stop(): Promise<void> };
// The embedded database cannot COPY over its socket: generator, export and import fall back to INSERTs.
const copy = inject("databaseKind") === "postgres";
let client: pg.Client;
let dir: string;
let files: { players: string; transactions: string };
let original: Snapshot;

interface Snapshot {
  players: string;
  transactions: string;
  stats: string;
}

async function snapshot(): Promise<Snapshot> {
  const f = async (table: string, order: string) => {
    const { rows } = await client.query<{ f: string | null; n: string }>(
      `SELECT md5(string_agg((to_jsonb(t) - 'updated_at')::text, '|' ORDER BY ${order})) AS f, count(*) AS n FROM ${table} t`,
    );
    return `${rows[0]?.n}:${rows[0]?.f}`;
  };
  return {
    players: await f("players", "id"),
    transactions: await f("transactions", "id"),
    stats: await f("transaction_daily_stats", "player_id, day, event_type, event_name, created_by"),
  };
}

const empty = () => client.query("TRUNCATE transactions, players");

beforeAll(async () => {
  db = await freshTestDatabase(inject("databaseKind"), "imp");
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  dir = await mkdtemp(path.join(tmpdir(), "db-import-"));
  files = { players: path.join(dir, "players.ndjson"), transactions: path.join(dir, "transactions.ndjson") };
  await generateDataset(client, { players: 25, transactions: 1_500, seed: 5, copy });
  original = await snapshot();
  await exportNdjson(client, files, { copy });
});
afterAll(async () => {
  await client?.end();
  await db?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function run(options: {
  players?: string;
  transactions?: string;
  strict?: boolean;
  rebuildIndexes?: boolean;
  parseWorkers?: number;
  batchBytes?: number;
  bulkMinRows?: number;
}) {
  const bad: string[] = [];
  const summary = await importNdjson(client, {
    ...(options.players ? { playersFile: options.players } : {}),
    ...(options.transactions ? { transactionsFile: options.transactions } : {}),
    strict: options.strict ?? false,
    ...(options.rebuildIndexes === undefined ? {} : { rebuildIndexes: options.rebuildIndexes }),
    ...(options.parseWorkers === undefined ? {} : { parseWorkers: options.parseWorkers }),
    ...(options.batchBytes === undefined ? {} : { batchBytes: options.batchBytes }),
    ...(options.bulkMinRows === undefined ? {} : { bulkMinRows: options.bulkMinRows }),
    copy,
    onBadLine: (m) => bad.push(m),
  });
  return { summary, bad };
}

describe("importNdjson", () => {
  beforeEach(empty);

  it("loads good files completely: the same rows, stats and derived balances and KPIs as the source", async () => {
    const { summary, bad } = await run(files);
    expect(bad).toEqual([]);
    expect(summary).toMatchObject({
      committed: true,
      players: { lines: 25, inserted: 25, existing: 0, bad: 0 },
      transactions: { lines: 1_500, inserted: 1_500, existing: 0, bad: 0 },
      refreshedPlayers: 25,
    });
    expect(await snapshot()).toEqual(original);
  });

  it("takes the large-import path (indexes and keys rebuilt, stats added set-based) to the same result", async () => {
    await run({ players: files.players });
    const { summary, bad } = await run({ transactions: files.transactions, rebuildIndexes: true });
    expect(bad).toEqual([]);
    expect(summary).toMatchObject({
      committed: true,
      rebuiltIndexes: true,
      transactions: { inserted: 1_500 },
    });
    expect(await snapshot()).toEqual(original);
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'transactions'",
    );
    // The key, four date orders, two amount-size orders, the bonus grants', the pending withdrawals' and the
    // wagering bets' partial indexes (with their WHERE back), the lookup's lower(id), the change feed's
    // (player_id, updated_at) and the bulk read's (updated_at, id).
    expect(indexes.rowCount).toBe(13);
    expect(indexes.rows.map((r) => r.indexname)).toContain("transactions_updated_at_id_idx");
    expect(indexes.rows.find((r) => r.indexname === "transactions_bonus_grants_idx")?.indexdef).toMatch(
      /INCLUDE \(amount\) WHERE \(\(event_type = 'bonus'::event_type\) AND \(amount > \(0\)::numeric\) AND \(completed_at IS NOT NULL\)\)/,
    );
    const fk = await client.query(
      "SELECT 1 FROM pg_constraint WHERE conname = 'transactions_player_id_fkey'",
    );
    expect(fk.rowCount).toBe(1);
    const statsKey = await client.query(
      "SELECT 1 FROM pg_constraint WHERE conname = 'transaction_daily_stats_pkey' AND contype = 'p'",
    );
    expect(statsKey.rowCount).toBe(1); // dropped for the load into empty stats, and back
    const trigger = await client.query<{ tgenabled: string }>(
      "SELECT tgenabled FROM pg_trigger WHERE tgname = 'transactions_daily_stats_insert'",
    );
    expect(trigger.rows[0]?.tgenabled).toBe("O");
    // And again on top of itself: nothing changes.
    const again = await run({ ...files, rebuildIndexes: true });
    expect(again.summary.transactions).toMatchObject({ inserted: 0, existing: 1_500 });
    expect(await snapshot()).toEqual(original);
  });

  it("chooses the large-import path by the new rows: a large file imported again does not rebuild", async () => {
    const first = await run({ ...files, bulkMinRows: 1_000 });
    expect(first.summary).toMatchObject({ rebuiltIndexes: true, transactions: { inserted: 1_500 } });
    await client.query("ANALYZE transactions");
    const again = await run({ ...files, bulkMinRows: 1_000 });
    expect(again.summary).toMatchObject({
      committed: true,
      rebuiltIndexes: false,
      transactions: { lines: 1_500, inserted: 0, existing: 1_500, bad: 0 },
    });
    expect(await snapshot()).toEqual(original);
  });

  it("is idempotent: importing the same files again changes nothing", async () => {
    await run(files);
    const { summary, bad } = await run(files);
    expect(bad).toEqual([]);
    expect(summary).toMatchObject({
      players: { inserted: 0, existing: 25 },
      transactions: { inserted: 0, existing: 1_500 },
    });
    expect(await snapshot()).toEqual(original);
  });

  /** The source files with bad lines put in; returns their paths. */
  async function withBadLines() {
    const players = (await readFile(files.players, "utf8")).trimEnd().split("\n");
    const transactions = (await readFile(files.transactions, "utf8")).trimEnd().split("\n");
    const firstTx = JSON.parse(transactions[0] ?? "{}") as { id: string; player_id: string };
    const badPlayers = [...players];
    badPlayers.splice(1, 0, "{not json"); // line 2
    badPlayers.push(players[0] ?? ""); // line 27: the same id again
    const badTransactions = [...transactions];
    badTransactions[2] = (transactions[2] ?? "").replace(/"amount" : [^,]+/, '"amount" : "12.50"'); // line 3
    badTransactions.push(
      (transactions[5] ?? "")
        .replace(/"player_id" : "[^"]+"/, '"player_id" : "P404"')
        .replace(/"id" : "[^"]+"/, '"id" : "TX404"'), // line 1501
      (transactions[0] ?? "").replace(firstTx.id, firstTx.id), // line 1502: duplicate of line 1
      "", // blank lines are not records
      (transactions[7] ?? "").replace('"event_type" : "', '"event_type" : "x'), // line 1504
    );
    const out = {
      players: path.join(dir, "bad-players.ndjson"),
      transactions: path.join(dir, "bad-transactions.ndjson"),
    };
    await writeFile(out.players, `${badPlayers.join("\n")}\n`);
    await writeFile(out.transactions, `${badTransactions.join("\n")}\n`);
    return { out, badAmountId: (JSON.parse(transactions[2] ?? "{}") as { id: string }).id };
  }

  it("skips and counts bad lines, reporting each with its line number and reason, and loads the good ones", async () => {
    const { out, badAmountId } = await withBadLines();
    const { summary, bad } = await run(out);
    expect(bad).toEqual([
      expect.stringMatching(/^bad-players\.ndjson: line 2: not valid JSON: /),
      "bad-players.ndjson: line 27: id: duplicate of line 1",
      "bad-transactions.ndjson: line 3: amount: must be a JSON number (exact decimal)",
      expect.stringMatching(/^bad-transactions\.ndjson: line 1504: event_type: /),
      "bad-transactions.ndjson: line 1501: player_id: no player P404 in the database or in the players file",
      "bad-transactions.ndjson: line 1502: id: duplicate of line 1",
    ]);
    expect(summary).toMatchObject({
      committed: true,
      players: { lines: 27, bad: 2, inserted: 25 },
      transactions: { lines: 1_503, bad: 4, inserted: 1_499 },
    });
    const missing = await client.query("SELECT 1 FROM transactions WHERE id = $1 OR id = 'TX404'", [
      badAmountId,
    ]);
    expect(missing.rowCount).toBe(0);
    // The one skipped transaction changed its player's derived balances; everyone else matches the source.
    expect((await snapshot()).transactions).not.toBe(original.transactions);
  });

  it("--strict loads nothing when any line is bad, but still reports every bad line", async () => {
    await run({ players: files.players });
    const before = await snapshot();
    const { out } = await withBadLines();
    const { summary, bad } = await run({ ...out, strict: true });
    expect(summary.committed).toBe(false);
    expect(bad).toHaveLength(6);
    expect(await snapshot()).toEqual(before);
    const loaded = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM transactions");
    expect(loaded.rows[0]?.n).toBe(0);
  });

  it("parses in worker batches: reports bad lines in line order across batches, the last batch's too", async () => {
    const { out } = await withBadLines();
    // About 6 lines per batch: ~250 batches over two workers, the bad transaction at line 1504 in the last one.
    const { summary, bad } = await run({ ...out, parseWorkers: 2, batchBytes: 2_000 });
    await empty();
    const inline = await run({ ...out, parseWorkers: 0 });
    expect(bad).toEqual(inline.bad);
    expect(bad[3]).toMatch(/^bad-transactions\.ndjson: line 1504: event_type: /);
    expect(summary).toEqual(inline.summary);
    expect(summary).toMatchObject({
      committed: true,
      transactions: { lines: 1_503, bad: 4, inserted: 1_499 },
    });
  });

  it("--strict loads nothing when the only bad line is in the last worker batch", async () => {
    await run({ players: files.players });
    const before = await snapshot();
    const lines = (await readFile(files.transactions, "utf8")).trimEnd().split("\n");
    const late = path.join(dir, "late-bad.ndjson");
    await writeFile(late, `${[...lines, '{"id" : "TLATE"}'].join("\n")}\n`);
    const { summary, bad } = await run({
      transactions: late,
      strict: true,
      parseWorkers: 2,
      batchBytes: 4_000,
    });
    expect(bad).toEqual([expect.stringMatching(/^late-bad\.ndjson: line 1501: /)]);
    expect(summary.committed).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  it("the large-import path adds to daily stats already there, to the same result as one import", async () => {
    const lines = (await readFile(files.transactions, "utf8")).trimEnd().split("\n");
    const first = path.join(dir, "first-half.ndjson");
    const second = path.join(dir, "second-half.ndjson");
    // The same players and days in both halves (lines are in id order, players interleave by date).
    const statsKey = (line: string) => {
      const t = JSON.parse(line) as Record<string, string>;
      return [t.player_id, t.date?.slice(0, 10), t.event_type, t.event_name, t.created_by].join("|");
    };
    const firstKeys = new Set(lines.filter((_, i) => i % 2 === 0).map(statsKey));
    expect(
      lines.filter((_, i) => i % 2 === 1 && firstKeys.has(statsKey(lines[i] ?? ""))).length,
    ).toBeGreaterThan(0);
    await writeFile(first, `${lines.filter((_, i) => i % 2 === 0).join("\n")}\n`);
    await writeFile(second, `${lines.filter((_, i) => i % 2 === 1).join("\n")}\n`);
    await run({ players: files.players, transactions: first, rebuildIndexes: false });
    const { summary, bad } = await run({ transactions: second, rebuildIndexes: true, parseWorkers: 2 });
    expect(bad).toEqual([]);
    expect(summary).toMatchObject({ rebuiltIndexes: true, transactions: { inserted: 750, existing: 0 } });
    expect(await snapshot()).toEqual(original);
  });

  it("--strict with good files loads them", async () => {
    const { summary } = await run({ ...files, strict: true });
    expect(summary.committed).toBe(true);
    expect(await snapshot()).toEqual(original);
  });

  it("derives balances and KPIs from the transactions, not from the file, for every player touched", async () => {
    // A player line claiming a balance its transactions do not give, and a transaction added later.
    const players = (await readFile(files.players, "utf8")).trimEnd().split("\n");
    const playerLine = players.find((l) => l.includes('"id" : "P000001"')) ?? "";
    const lying = path.join(dir, "lying.ndjson");
    await writeFile(lying, playerLine.replace(/"cash_balance" : [^,]+/, '"cash_balance" : 999999.99'));
    await run({ players: lying });
    const fresh = await client.query<{ cash_balance: string; ltd: string }>(
      "SELECT cash_balance::text, ltd::text FROM players WHERE id = 'P000001'",
    );
    expect(fresh.rows[0]).toEqual({ cash_balance: "0.00000000", ltd: "0.00000000" }); // no transactions yet

    const deposit = path.join(dir, "deposit.ndjson");
    await writeFile(
      deposit,
      `${JSON.stringify({
        id: "TDEP1",
        player_id: "P000001",
        date: "2026-11-01T10:00:00.000Z",
        event_type: "deposit",
        event_name: "Card Deposit",
        event_note: null,
        amount: 0,
        currency: "EUR",
        payment_method: "Visa",
        created_by: "System",
        created_at: "2026-11-01T10:00:00.000Z",
        completed_at: "2026-11-01T10:00:05.000Z",
      }).replace('"amount":0', '"amount":123456789012.12345678')}\n`,
    );
    const { summary } = await run({ transactions: deposit });
    expect(summary.refreshedPlayers).toBe(1);
    const after = await client.query<{ cash_balance: string; ltd: string; last_deposit_amount: string }>(
      "SELECT cash_balance::text, ltd::text, last_deposit_amount::text FROM players WHERE id = 'P000001'",
    );
    expect(after.rows[0]).toEqual({
      cash_balance: "123456789012.12345678",
      ltd: "123456789012.12345678",
      last_deposit_amount: "123456789012.12345678",
    });
    const stats = await client.query<{ n: number; completed_amount: string }>(
      "SELECT n, completed_amount::text FROM transaction_daily_stats WHERE player_id = 'P000001'",
    );
    expect(stats.rows).toEqual([{ n: 1, completed_amount: "123456789012.12345678" }]);
  });
});
