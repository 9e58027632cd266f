/*
 * npm run bench:partitions -- --database-url URL [--runs 15] [--keep]
 * Issue 25's partitioning question, answered with numbers on a generated data set: copies of `transactions`
 * declaratively partitioned by HASH (player_id, 16 partitions) and by RANGE (date, one partition a month), with
 * the indexes the reads need, next to the table as it is; then the product's query shapes on all three
 * (EXPLAIN ANALYZE, warm, median of --runs): planning and execution time and the pages touched. The copies live in
 * a schema of their own (`partition_eval`), dropped at the end unless --keep. docs/decisions.md has the outcome.
 */
import pg from "pg";
import { commandArgs } from "../command-args.ts";
import { median } from "../median.ts";
import { runMain } from "../run-main.ts";
import { pickBenchData } from "./pick-bench-data.ts";

const HELP = "usage: npm run bench:partitions -- --database-url URL [--runs N] [--keep]";
const say = (line: string) => console.log(line);
const SCHEMA = "partition_eval";
const INDEXES = [
  "(player_id, date DESC, id DESC)",
  "(player_id, event_type, date DESC, id DESC)",
  "(lower(id))",
];

interface Layout {
  name: string;
  table: string;
  /** DDL of the partitioned copy (none for the table as it is). */
  create?: (months: string[]) => string[];
}

const LAYOUTS: Layout[] = [
  { name: "as is (one table)", table: "public.transactions" },
  {
    name: "hash(player_id) × 16",
    table: `${SCHEMA}.tx_hash`,
    create: () => [
      `CREATE TABLE ${SCHEMA}.tx_hash (LIKE public.transactions INCLUDING DEFAULTS) PARTITION BY HASH (player_id)`,
      ...Array.from(
        { length: 16 },
        (_, i) =>
          `CREATE TABLE ${SCHEMA}.tx_hash_${i} PARTITION OF ${SCHEMA}.tx_hash FOR VALUES WITH (MODULUS 16, REMAINDER ${i})`,
      ),
    ],
  },
  {
    name: "range(date) by month",
    table: `${SCHEMA}.tx_month`,
    create: (months) => [
      `CREATE TABLE ${SCHEMA}.tx_month (LIKE public.transactions INCLUDING DEFAULTS) PARTITION BY RANGE (date)`,
      ...months.map(
        (m, i) =>
          `CREATE TABLE ${SCHEMA}.tx_month_${i} PARTITION OF ${SCHEMA}.tx_month FOR VALUES FROM ('${m}') TO (('${m}'::timestamptz + interval '1 month'))`,
      ),
    ],
  },
];

/** The copy: created, filled from the table as it is, indexed and analyzed; how long each step took. */
async function buildCopy(client: pg.Client, layout: Layout, months: string[]) {
  if (!layout.create) return { loadSeconds: 0, indexSeconds: 0 };
  for (const ddl of layout.create(months)) await client.query(ddl);
  let t = performance.now();
  await client.query(`INSERT INTO ${layout.table} SELECT * FROM public.transactions`);
  const loadSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  for (const columns of INDEXES) await client.query(`CREATE INDEX ON ${layout.table} ${columns}`);
  await client.query(`ANALYZE ${layout.table}`);
  return { loadSeconds, indexSeconds: (performance.now() - t) / 1000 };
}

async function sizeOf(client: pg.Client, layout: Layout) {
  const { rows } = await client.query<{ heap: string; index: string }>(
    `SELECT sum(pg_table_size(c.oid)) AS heap, sum(pg_indexes_size(c.oid)) AS index
     FROM pg_class c WHERE c.oid = $1::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = $1::regclass)`,
    [layout.table],
  );
  return { heapBytes: Number(rows[0]?.heap ?? 0), indexBytes: Number(rows[0]?.index ?? 0) };
}

interface Shape {
  name: string;
  sql: (table: string) => string;
  params: unknown[];
}

/** The product's reads of transactions, with the bench's players and values. */
async function shapes(pool: pg.Pool): Promise<Shape[]> {
  const d = await pickBenchData(pool);
  const cursor = await pool.query<{ date: Date; id: string }>(
    "SELECT date, id FROM transactions WHERE player_id = $1 ORDER BY date DESC, id DESC OFFSET $2 LIMIT 1",
    [d.whale.id, d.depth],
  );
  const at = cursor.rows[0];
  const cols = "id, player_id, date, event_type, event_name, amount, currency, status";
  const page = (extra: string) => (table: string) =>
    `SELECT ${cols} FROM ${table} WHERE player_id = $1 ${extra} ORDER BY date DESC, id DESC LIMIT 21`;
  return [
    { name: "small player, first page", sql: page(""), params: [d.small.id] },
    { name: "whale, first page", sql: page(""), params: [d.whale.id] },
    {
      name: "whale, cursor page at 100k",
      sql: page("AND (date, id) < ($2, $3)"),
      params: [d.whale.id, at?.date, at?.id],
    },
    {
      name: "whale, type + date range",
      sql: page("AND event_type = $2 AND date >= $3 AND date < $4"),
      params: [d.whale.id, d.typeDate.eventType, d.typeDate.fromDate, d.typeDate.toDate],
    },
    // Exact totals come from transaction_daily_stats (whole days) plus the partial days' rows, whatever the layout
    // of transactions: the whole-days part, for all of the whale's history and for a type over a date range.
    {
      name: "whale, exact total (daily stats)",
      sql: () => "SELECT sum(n) FROM transaction_daily_stats WHERE player_id = $1",
      params: [d.whale.id],
    },
    {
      name: "whale, exact total of a type over a range",
      sql: () =>
        "SELECT sum(n) FROM transaction_daily_stats WHERE player_id = $1 AND event_type = $2 AND day >= $3::date AND day < $4::date",
      params: [d.whale.id, d.typeDate.eventType, d.typeDate.fromDate, d.typeDate.toDate],
    },
    {
      name: "transaction id, any player",
      sql: (table) => `SELECT ${cols} FROM ${table} WHERE lower(id) = lower($1)`,
      params: [d.search.transactionId],
    },
  ];
}

interface Timing {
  planMs: number;
  execMs: number;
  buffers: number;
}

async function explain(client: pg.Client, sql: string, params: unknown[]): Promise<Timing> {
  const { rows } = await client.query<{ "QUERY PLAN": [Record<string, unknown>] }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
    params,
  );
  const top = rows[0]?.["QUERY PLAN"][0] ?? {};
  const plan = (top.Plan ?? {}) as Record<string, number>;
  return {
    planMs: Number(top["Planning Time"] ?? 0),
    execMs: Number(top["Execution Time"] ?? 0),
    buffers: (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0),
  };
}

async function measure(client: pg.Client, shape: Shape, table: string, runs: number) {
  const xs: Timing[] = [];
  for (let i = 0; i < runs + 2; i++) xs.push(await explain(client, shape.sql(table), shape.params));
  const warm = xs.slice(2);
  return {
    planMs: median(warm.map((x) => x.planMs)),
    execMs: median(warm.map((x) => x.execMs)),
    buffers: median(warm.map((x) => x.buffers)),
  };
}

const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;

async function main(): Promise<number> {
  const values = commandArgs("bench:partitions", HELP, {
    "database-url": { type: "string" },
    runs: { type: "string", default: "15" },
    keep: { type: "boolean", default: false },
  });
  const url = values["database-url"] ?? process.env.DATABASE_URL;
  if (!url) throw new Error(`--database-url is required\n${HELP}`);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
    const { rows: monthRows } = await client.query<{ m: string }>(
      `SELECT to_char(m, 'YYYY-MM-DD"T"00:00:00Z') AS m FROM generate_series(
         (SELECT date_trunc('month', min(date)) FROM transactions), (SELECT max(date) FROM transactions), interval '1 month') m`,
    );
    const months = monthRows.map((r) => r.m);
    const cases = await shapes(pool);
    for (const layout of LAYOUTS) {
      const built = await buildCopy(client, layout, months);
      const size = await sizeOf(client, layout);
      say(
        `\n## ${layout.name}: ${gib(size.heapBytes)} heap + ${gib(size.indexBytes)} indexes` +
          (layout.create
            ? `; load ${built.loadSeconds.toFixed(0)} s, indexes ${built.indexSeconds.toFixed(0)} s`
            : ""),
      );
      for (const shape of cases) {
        const m = await measure(client, shape, layout.table, Number(values.runs));
        say(
          `- ${shape.name}: planning ${m.planMs.toFixed(2)} ms, execution ${m.execMs.toFixed(2)} ms, ${m.buffers} pages`,
        );
      }
      if (layout.create && !values.keep) await client.query(`DROP TABLE ${layout.table}`);
    }
  } finally {
    if (!values.keep) await client.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await client.end();
    await pool.end();
  }
  return 0;
}

runMain(import.meta.url, main);
