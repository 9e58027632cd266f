import type { ClientBase } from "pg";
import { newestBonusGrantSql, wageringBetsSql } from "@/platform/db/refresh-player-aggregates";

/*
 * The exactness check (issue 24): the read model the consumer built, incrementally, from the wallet's events
 * against what db:import derives from the same final states (a reference database loaded from the NDJSON of the
 * published records): every touched player's profile (balances, KPIs), every transaction (state included) and
 * the daily stats, value by value. `version` is left out: db:import does not carry it; `updated_at` too: it is
 * the time of each database's own write. The consumer's running sum of bets since the grant (wr_grant_date,
 * wr_bets; db:import leaves it unknown) is compared as whether it agrees with the transactions: true on both sides.
 */
const PLAYER_SQL = `
  SELECT to_jsonb(p) - 'version' - 'updated_at' - 'wr_grant_date' - 'wr_bets'
    || jsonb_build_object('wr_bets_agree', p.wr_grant_date IS NULL OR (
      p.wr_grant_date = (SELECT g.date FROM (${newestBonusGrantSql("p.id")}) g)
      AND p.wr_bets = ${wageringBetsSql("p.id", "p.wr_grant_date")})) AS row
  FROM players p WHERE id = ANY($1::text[]) ORDER BY id`;
const TRANSACTION_SQL = `
  SELECT to_jsonb(t) - 'version' - 'updated_at' AS row FROM transactions t WHERE player_id = ANY($1::text[]) ORDER BY id`;
const STATS_SQL = `
  SELECT to_jsonb(s) AS row FROM transaction_daily_stats s WHERE player_id = ANY($1::text[])
  ORDER BY player_id, day, event_type, event_name, created_by`;

export interface ExactnessResult {
  players: number;
  transactions: number;
  dailyStats: number;
  /** Up to 20 differences, each naming the table, the row and the first differing field. */
  differences: string[];
  /** How many rows differ per table (players, transactions, daily stats), all of them counted. */
  differing: { players: number; transactions: number; dailyStats: number };
}

async function rows(client: ClientBase, sql: string, ids: string[]): Promise<Record<string, unknown>[]> {
  return (await client.query<{ row: Record<string, unknown> }>(sql, [ids])).rows.map((r) => r.row);
}

function compare(
  table: string,
  key: (r: Record<string, unknown>) => string,
  live: Record<string, unknown>[],
  reference: Record<string, unknown>[],
  out: string[],
) {
  const byKey = new Map(reference.map((r) => [key(r), r]));
  const seen = new Set<string>();
  for (const l of live) {
    const k = key(l);
    seen.add(k);
    const r = byKey.get(k);
    if (!r) {
      out.push(`${table} ${k}: only in the live read model`);
      continue;
    }
    for (const field of new Set([...Object.keys(l), ...Object.keys(r)])) {
      if (JSON.stringify(l[field]) !== JSON.stringify(r[field])) {
        out.push(
          `${table} ${k}.${field}: live ${JSON.stringify(l[field])} ≠ db:import ${JSON.stringify(r[field])}`,
        );
        break;
      }
    }
  }
  for (const k of byKey.keys()) if (!seen.has(k)) out.push(`${table} ${k}: missing from the live read model`);
}

/** Compares the players `ids` (and their transactions and daily stats) between the two databases. */
export async function compareReadModels(
  live: ClientBase,
  reference: ClientBase,
  ids: string[],
): Promise<ExactnessResult> {
  const differences: string[] = [];
  // One query at a time per client (pg runs a client's queries one by one anyway).
  const read = async (client: ClientBase) => [
    await rows(client, PLAYER_SQL, ids),
    await rows(client, TRANSACTION_SQL, ids),
    await rows(client, STATS_SQL, ids),
  ];
  const [[lp = [], lt = [], ls = []], [rp = [], rt = [], rs = []]] = await Promise.all([
    read(live),
    read(reference),
  ]);
  compare("player", (r) => String(r.id), lp, rp, differences);
  const players = differences.length;
  compare("transaction", (r) => String(r.id), lt, rt, differences);
  const transactions = differences.length - players;
  compare(
    "daily_stats",
    (r) => [r.player_id, r.day, r.event_type, r.event_name, r.created_by].join("|"),
    ls,
    rs,
    differences,
  );
  return {
    players: lp.length,
    transactions: lt.length,
    dailyStats: ls.length,
    differences: differences.slice(0, 20),
    differing: { players, transactions, dailyStats: differences.length - players - transactions },
  };
}
