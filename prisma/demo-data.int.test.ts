import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getPlayerProfile } from "@/features/players/data/get-player-profile";
import { KYC_STATUSES } from "@/features/players/schema/player";
import { CREATORS, EVENT_TYPES } from "@/features/transactions/schema/transaction";
import { WAGERING_MULTIPLIER } from "@/platform/db/refresh-player-aggregates";
import { createTestPrisma } from "@/test/support/test-client";
import { DEMO_REFERENCE_NOW } from "./demo-data/clock.ts";

/*
 * The demo data set as loaded into the database (plus the PTEST fixtures): the shape the spec and the UI rely
 * on, and profiles whose balances and KPIs agree with the transactions. The expected values are recomputed
 * here from the raw rows in exact integer arithmetic (units of 1e-8), independently of the SQL that stores them.
 */
const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(async () => {
  await db.$disconnect();
  await sql.end();
});

const SCALE = 8;
/** "−12.5" → −1250000000n (units of 1e-8). */
function units(text: string): bigint {
  const negative = text.startsWith("-");
  const [whole = "0", frac = ""] = text.replace(/^[-+]/, "").split(".");
  const value = BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(frac.padEnd(SCALE, "0").slice(0, SCALE) || "0");
  return negative ? -value : value;
}
const abs = (x: bigint) => (x < 0n ? -x : x);
const max0 = (x: bigint) => (x > 0n ? x : 0n);

interface Row {
  player_id: string;
  id: string;
  date: Date;
  event_type: string;
  amount: string;
  completed_at: Date | null;
}
interface PlayerRow {
  id: string;
  blocked: boolean;
  withdrawal_status: string | null;
}

let transactions: Row[];
let players: PlayerRow[];

beforeAll(async () => {
  transactions = (
    await sql.query<Row>(
      "SELECT player_id, id, date, event_type::text AS event_type, amount::text AS amount, completed_at FROM transactions",
    )
  ).rows;
  players = (await sql.query<PlayerRow>("SELECT id, blocked, withdrawal_status FROM players ORDER BY id"))
    .rows;
});

/** Newest first by date, then id: the order the API and the aggregates use. */
const newestFirst = (a: Row, b: Row) =>
  b.date.getTime() - a.date.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function expectedAggregates(player: PlayerRow, rows: Row[]) {
  const sum = (keep: (r: Row) => boolean) => rows.filter(keep).reduce((s, r) => s + units(r.amount), 0n);
  const completed = (r: Row) => r.completed_at !== null;
  const cash = sum((r) => r.event_type !== "bonus" && (completed(r) || r.event_type === "withdrawal"));
  const bonus = sum((r) => r.event_type === "bonus" && completed(r));
  const ltd = sum((r) => r.event_type === "deposit" && completed(r));
  const ltw = -sum((r) => r.event_type === "withdrawal" && completed(r));
  const sorted = [...rows].sort(newestFirst);
  const lastDeposit = sorted.find((r) => r.event_type === "deposit" && completed(r));
  const lastWithdrawal = sorted.find((r) => r.event_type === "withdrawal");
  const lastGrant = sorted.find((r) => r.event_type === "bonus" && completed(r) && units(r.amount) > 0n);
  const deposits = rows
    .filter((r) => r.event_type === "deposit" && completed(r))
    .map((r) => r.date.getTime());
  const wr =
    bonus > 0n && lastGrant
      ? max0(
          BigInt(WAGERING_MULTIPLIER) * units(lastGrant.amount) +
            sum((r) => r.event_type === "bet" && r.date >= lastGrant.date),
        )
      : 0n;
  return {
    total_balance: cash + bonus,
    cash_balance: cash,
    bonus_balance: bonus,
    withdrawable_balance: !player.blocked && player.withdrawal_status === "allowed" ? max0(cash) : 0n,
    pending_withdrawal: -sum((r) => r.event_type === "withdrawal" && !completed(r)),
    ltd,
    ltw,
    ltnc: ltd - ltw,
    wr,
    active_bonus: bonus > 0n,
    last_deposit: lastDeposit
      ? { amount: units(lastDeposit.amount), date: lastDeposit.date.toISOString() }
      : null,
    last_withdrawal: lastWithdrawal
      ? {
          amount: abs(units(lastWithdrawal.amount)),
          status: lastWithdrawal.completed_at ? "completed" : "pending",
        }
      : null,
    ftd_date: deposits.length ? new Date(Math.min(...deposits)).toISOString() : null,
  };
}

describe("demo data", () => {
  it("has at least 200 players and a player with at least 20,000 transactions", async () => {
    expect(players.length).toBeGreaterThanOrEqual(200);
    const counts = new Map<string, number>();
    for (const t of transactions) counts.set(t.player_id, (counts.get(t.player_id) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThanOrEqual(20_000);
    expect(players.filter((p) => !counts.has(p.id)).length, "players who never played").toBeGreaterThan(0);
  });

  it("runs up to the reference date: heavy players have every one of the last 12 months, most players the last days", () => {
    const DAY = 86_400_000;
    const last = new Map<string, number>();
    const count = new Map<string, number>();
    const months = new Map<string, Set<string>>();
    for (const t of transactions) {
      if (!t.player_id.startsWith("P0")) continue; // the PTEST fixtures have dates of their own
      const at = t.date.getTime();
      count.set(t.player_id, (count.get(t.player_id) ?? 0) + 1);
      last.set(t.player_id, Math.max(last.get(t.player_id) ?? 0, at));
      const seen = months.get(t.player_id) ?? new Set<string>();
      seen.add(t.date.toISOString().slice(0, 7));
      months.set(t.player_id, seen);
    }
    const lastTwelve = Array.from({ length: 12 }, (_, i) => {
      const d = new Date(DEMO_REFERENCE_NOW);
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() - i);
      return d.toISOString().slice(0, 7);
    });
    const heavy = [...months].filter(([id]) => (count.get(id) ?? 0) >= 1_000);
    expect(heavy.length).toBeGreaterThanOrEqual(6);
    for (const [id, seen] of heavy) {
      expect(
        lastTwelve.filter((m) => !seen.has(m)),
        `${id}: months without transactions`,
      ).toEqual([]);
      expect(DEMO_REFERENCE_NOW - (last.get(id) ?? 0), `${id}: days since last`).toBeLessThan(5 * DAY);
    }
    // A quarter of the light players churned 30–300 days ago on purpose (the empty-range state needs them).
    const recent = [...last.values()].filter((at) => DEMO_REFERENCE_NOW - at <= 30 * DAY).length;
    expect(recent / last.size).toBeGreaterThan(0.6);
    expect(Math.max(...last.values())).toBeLessThanOrEqual(DEMO_REFERENCE_NOW);
  });

  it("covers every event type, creator and KYC status", async () => {
    expect(new Set(transactions.map((t) => t.event_type))).toEqual(new Set(EVENT_TYPES));
    const creators = await sql.query<{ created_by: string }>("SELECT DISTINCT created_by FROM transactions");
    expect(new Set(creators.rows.map((r) => r.created_by))).toEqual(new Set(CREATORS));
    const kyc = await sql.query<{ k: string }>(
      "SELECT DISTINCT kyc_status::text AS k FROM players WHERE id LIKE 'P0%'",
    );
    expect(new Set(kyc.rows.map((r) => r.k))).toEqual(new Set(KYC_STATUSES));
  });

  it("writes segment labels with underscores between lower-case words", async () => {
    const { rows } = await sql.query<{ s: string }>("SELECT DISTINCT unnest(segments) AS s FROM players");
    expect(rows.length).toBeGreaterThan(3);
    for (const { s } of rows) expect(s).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(rows.some(({ s }) => s.includes("_"))).toBe(true);
  });

  it("has blocked players and pending transactions (null completed_at)", async () => {
    expect(players.some((p) => p.blocked)).toBe(true);
    expect(players.some((p) => !p.blocked)).toBe(true);
    expect(transactions.some((t) => t.completed_at === null && t.player_id.startsWith("P0"))).toBe(true);
    expect(transactions.some((t) => t.completed_at === null && t.event_type === "withdrawal")).toBe(true);
  });

  it("never lets a demo player's cash go below zero (no bet without money)", () => {
    const cash = new Map<string, bigint>();
    for (const t of transactions) {
      if (!t.player_id.startsWith("P0") || t.event_type === "bonus") continue;
      if (t.completed_at === null && t.event_type !== "withdrawal") continue;
      cash.set(t.player_id, (cash.get(t.player_id) ?? 0n) + units(t.amount));
    }
    const negative = [...cash].filter(([, v]) => v < 0n).map(([id]) => id);
    expect(negative).toEqual([]);
  });

  it("every profile's balances and KPIs agree with its transactions", async () => {
    const byPlayer = new Map<string, Row[]>();
    for (const t of transactions) {
      const list = byPlayer.get(t.player_id);
      if (list) list.push(t);
      else byPlayer.set(t.player_id, [t]);
    }
    let withBonus = 0;
    let withPending = 0;
    for (const player of players) {
      const profile = await getPlayerProfile({ playerId: player.id }, db);
      if (!profile) throw new Error(`no profile for ${player.id}`);
      const want = expectedAggregates(player, byPlayer.get(player.id) ?? []);
      const got = {
        total_balance: units(profile.balances.total_balance.digits),
        cash_balance: units(profile.balances.cash_balance.digits),
        bonus_balance: units(profile.balances.bonus_balance.digits),
        withdrawable_balance: units(profile.balances.withdrawable_balance.digits),
        pending_withdrawal: units(profile.balances.pending_withdrawal.digits),
        ltd: units(profile.kpi.ltd.digits),
        ltw: units(profile.kpi.ltw.digits),
        ltnc: units(profile.kpi.ltnc.digits),
        wr: units(profile.kpi.wr.digits),
        active_bonus: profile.kpi.active_bonus,
        last_deposit: profile.kpi.last_deposit
          ? { amount: units(profile.kpi.last_deposit.amount.digits), date: profile.kpi.last_deposit.date }
          : null,
        last_withdrawal: profile.kpi.last_withdrawal
          ? {
              amount: units(profile.kpi.last_withdrawal.amount.digits),
              status: profile.kpi.last_withdrawal.status,
            }
          : null,
        ftd_date: profile.ftd_date,
      };
      expect(got, player.id).toEqual(want);
      if (want.active_bonus) withBonus++;
      if (want.pending_withdrawal > 0n) withPending++;
    }
    // The comparison is only meaningful if the data exercises these cases.
    expect(withBonus).toBeGreaterThan(0);
    expect(withPending).toBeGreaterThan(0);
  });
});
