/*
 * `npm run perf:explain -- [DATABASE_URL]`: EXPLAIN (ANALYZE, BUFFERS) of the SQL the product really runs for a
 * player's transaction list, for every filter combination (single and multiple values), on the whale and a
 * small player, at the first page, at offset ≈100,000 and via a cursor at the same depth, plus the export's
 * keyset batches and the support lookup (names without accents, transaction ids, whole contact data). The statements are captured from the data functions in features/<name>/data through Prisma's query
 * log, so the findings follow the code. Each EXPLAIN runs in a READ ONLY transaction that is rolled back.
 * Prints a table per player and page, and writes it to bench-results/explain-<time>.md.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { streamPlayerTransactions } from "../../features/exports/data/stream-player-transactions.ts";
import { searchPlayers } from "../../features/players/data/search-players.ts";
import { listPlayerTransactions } from "../../features/transactions/data/list-player-transactions.ts";
import {
  transactionExportQuerySchema,
  transactionListQuerySchema,
} from "../../features/transactions/schema/transaction.ts";
import { PrismaClient } from "../../platform/db/generated/client.ts";
import { pickBenchData, TARGET_DEPTH } from "./pick-bench-data.ts";
import {
  type ExplainJson,
  type PlanSummary,
  parsePrismaParams,
  statementKind,
  summarizePlan,
} from "./plan-summary.ts";

type Query = Record<string, string | string[]>;
interface Captured {
  sql: string;
  params: unknown[];
}
interface Line {
  player: string;
  combination: string;
  page: string;
  kind: string;
  plan: PlanSummary;
}

const databaseUrl = process.argv[2] ?? process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("usage: npm run perf:explain -- DATABASE_URL   (or set DATABASE_URL)");
  process.exit(2);
}

const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
const adapter = new PrismaPg({ connectionString: databaseUrl, max: 4 });
const prisma = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
let captured: Captured[] = [];
prisma.$on("query", (e) => {
  captured.push({ sql: e.query, params: parsePrismaParams(e.params) });
});

async function capture(run: () => Promise<unknown>): Promise<Captured[]> {
  captured = [];
  await run();
  const statements = captured;
  captured = [];
  return statements;
}

async function explain(statement: Captured): Promise<PlanSummary> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN READ ONLY");
    const { rows } = await client.query<{ "QUERY PLAN": ExplainJson[] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`,
      statement.params,
    );
    const plan = rows[0]?.["QUERY PLAN"][0];
    if (!plan) throw new Error(`no plan for ${statement.sql}`);
    return summarizePlan(plan);
  } finally {
    await client.query("ROLLBACK").catch(() => {});
    client.release();
  }
}

function parseList(query: Query) {
  const { limit, offset, cursor, sort, ...filters } = transactionListQuerySchema.parse(query);
  return { limit, offset, cursor: cursor?.key, sort, filters };
}

const say = (line: string) => console.log(line);
const started = Date.now();
say("picking players …");
const data = await pickBenchData(pool, process.env.BENCH_WHALE_ID);
const top = async (column: string, n: number) =>
  (
    await pool.query<{ v: string }>(
      `SELECT ${column}::text AS v FROM transactions WHERE player_id = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${n}`,
      [data.whale.id],
    )
  ).rows.map((r) => r.v);
const [types, names, creators] = await Promise.all([
  top("event_type", 2),
  top("event_name", 2),
  top("created_by", 3),
]);
const [type1 = "bet", type2 = type1] = types;
const [name1 = "Casino Bet", name2 = name1] = names;
const creator = creators[0] ?? "System";
const rareCreator = creators.at(-1) ?? creator;
const range = { from_date: data.typeDate.fromDate, to_date: data.typeDate.toDate };

const combinations: [string, Query][] = [
  ["none", {}],
  [`event_type=${type1}`, { event_type: [type1] }],
  [`event_type=${type1},${type2}`, { event_type: [type1, type2] }],
  [`event_name=${name1}`, { event_name: [name1] }],
  [`event_name=${name1},${name2}`, { event_name: [name1, name2] }],
  [`created_by=${creator}`, { created_by: creator }],
  [`created_by=${rareCreator}`, { created_by: rareCreator }],
  ["date range", range],
  ["from_date only", { from_date: range.from_date }],
  [`event_type=${type1} + date range`, { event_type: [type1], ...range }],
  [`event_type=${type1},${type2} + date range`, { event_type: [type1, type2], ...range }],
  [`event_name=${name1} + date range`, { event_name: [name1], ...range }],
  [`event_type=${type1} + event_name=${name1}`, { event_type: [type1], event_name: [name1] }],
  [`created_by=${rareCreator} + event_type=${type1}`, { created_by: rareCreator, event_type: [type1] }],
  [`created_by=${rareCreator} + date range`, { created_by: rareCreator, ...range }],
  [
    `event_type + event_name + created_by + date range`,
    { event_type: [type1], event_name: [name1], created_by: creator, ...range },
  ],
  // The amount orders sort by size, abs(amount): served by the abs-amount expression indexes.
  ["sort=amount_desc (by size)", { sort: "amount_desc" }],
  ["event_type=withdrawal + sort=amount_desc", { event_type: ["withdrawal"], sort: "amount_desc" }],
  ["event_type=withdrawal + sort=amount_asc", { event_type: ["withdrawal"], sort: "amount_asc" }],
];

const lines: Line[] = [];
const KIND_ORDER = ["page", "count", "stats", "other"];
async function record(player: string, combination: string, page: string, statements: Captured[]) {
  // The data functions run their statements concurrently: list them in a stable order.
  const ordered = [...statements].sort(
    (a, b) => KIND_ORDER.indexOf(statementKind(a.sql)) - KIND_ORDER.indexOf(statementKind(b.sql)),
  );
  for (const statement of ordered) {
    const kind = statementKind(statement.sql);
    if (kind === "player") continue; // primary-key lookup; the same in every combination
    lines.push({ player, combination, page, kind, plan: await explain(statement) });
  }
}

for (const [player, id] of [
  ["whale", data.whale.id],
  ["small", data.small.id],
] as const) {
  for (const [combination, query] of combinations) {
    const first = parseList({ ...query, limit: "20" });
    let total = 0;
    const firstStatements = await capture(async () => {
      total = (await listPlayerTransactions({ playerId: id, ...first }, prisma))?.total ?? 0;
    });
    await record(player, combination, "first page", firstStatements);
    if (player === "small") continue;
    const depth = Math.max(0, Math.min(TARGET_DEPTH, total - 20));
    if (depth === 0) continue; // nothing below the first page
    const deep = parseList({ ...query, limit: "20", offset: String(depth) });
    await record(
      player,
      combination,
      `offset ${depth}`,
      await capture(() => listPlayerTransactions({ playerId: id, ...deep }, prisma)),
    );
    const before = parseList({ ...query, limit: "1", offset: String(depth - 1) });
    const cursor = (await listPlayerTransactions({ playerId: id, ...before }, prisma))?.nextCursor;
    if (!cursor) continue;
    const keyset = parseList({ ...query, limit: "20", cursor });
    await record(
      player,
      combination,
      `cursor at ${depth}`,
      await capture(() => listPlayerTransactions({ playerId: id, ...keyset }, prisma)),
    );
  }
  say(`${player}: done (${lines.length} statements so far)`);
}

// The export: its first two keyset batches (the rest repeat the second's plan from further down).
const {
  format: _format,
  sort: exportSort,
  ...exportFilters
} = transactionExportQuerySchema.parse({
  from_date: data.export.fromDate,
});
const exportStatements = await capture(async () => {
  const batches = await streamPlayerTransactions(
    { playerId: data.whale.id, filters: exportFilters, sort: exportSort },
    prisma,
  );
  let n = 0;
  for await (const _batch of batches ?? []) if (++n === 2) break;
});
await record("whale", `export from_date (${data.export.rows} rows)`, "batches 1–2", exportStatements);

// The support lookup (issue 23), as a caller who sees contact data masked: a name typed without accents, a
// transaction id in lower case, a whole e-mail address and phone number (statements: page, count, transactions).
const lookups: [string, string][] = [
  [`name "${data.search.name}"`, data.search.name],
  [`transaction id ${data.search.transactionId}`, data.search.transactionId],
  ["e-mail address", "nobody.at.all@example.com"],
  ["phone number", "+44 7700 900189"],
];
for (const [label, q] of lookups) {
  const statements = await capture(() =>
    searchPlayers({ q, limit: 20, offset: 0, contact: "exact" }, prisma),
  );
  await record("lookup", label, "first page", statements);
}

const flags = (p: PlanSummary) =>
  [p.seqScan ? "SEQ SCAN" : "", p.sort ? "SORT" : ""].filter(Boolean).join(" ");
const header =
  "| player | filters | page | statement | plan | ms | rows | removed by filter | buffers hit/read | flags |\n|---|---|---|---|---|--:|--:|--:|--:|---|";
const body = lines.map(
  (l) =>
    `| ${l.player} | ${l.combination} | ${l.page} | ${l.kind} | ${l.plan.shape} | ${l.plan.executionMs.toFixed(2)} | ${l.plan.rows} | ${l.plan.removedByFilter} | ${l.plan.sharedHit}/${l.plan.sharedRead} | ${flags(l.plan)} |`,
);
const slowest = [...lines].sort((a, b) => b.plan.executionMs - a.plan.executionMs).slice(0, 5);
const summary = [
  `${lines.length} statements; ${lines.filter((l) => l.plan.seqScan).length} with a Seq Scan, ${lines.filter((l) => l.plan.sort).length} with a Sort;`,
  `slowest: ${slowest.map((l) => `${l.player} ${l.combination} ${l.page} ${l.kind} ${l.plan.executionMs.toFixed(1)} ms`).join("; ")}`,
].join(" ");
const md = [
  `# EXPLAIN ANALYZE of the product's transaction queries (${new Date().toISOString()})`,
  "",
  `Whale ${data.whale.id} (${data.whale.transactions} transactions), small player ${data.small.id} (${data.small.transactions}). Date range ${range.from_date} .. ${range.to_date}. Player lookups (primary key) omitted.`,
  "",
  header,
  ...body,
  "",
  summary,
  "",
].join("\n");
say(`\n${md}`);
const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
const out = path.join("bench-results", `explain-${stamp}.md`);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, md);
say(`written to ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
await prisma.$disconnect();
await pool.end();
