import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  CREATORS,
  EVENT_TYPES,
  transactionListQuerySchema,
} from "@/features/transactions/schema/transaction";
import { parseQuery } from "@/platform/http/query";
import { ApiError } from "@/platform/problems/problem";
import { createRng } from "@/prisma/demo-data/random";
import { createTestPrisma } from "@/test/support/test-client";
import { FIXTURE_BOUNDS, FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { countPlayerTransactions } from "./count-player-transactions.ts";

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(async () => {
  await db.$disconnect();
  await sql.end();
});

const WHALE = "P000007";

function filtersOf(qs: string) {
  const {
    limit: _l,
    offset: _o,
    cursor: _c,
    ...filters
  } = parseQuery(transactionListQuerySchema, new URLSearchParams(qs));
  return filters;
}

/** The plain answer: count(*) over the rows, written independently of the product's query building. */
async function plainCount(playerId: string, qs: string): Promise<number> {
  const p = new URLSearchParams(qs);
  const where = ["player_id = $1"];
  const args: unknown[] = [playerId];
  const types = p.getAll("event_type").flatMap((v) => v.split(","));
  if (types.length) where.push(`event_type::text = ANY($${args.push(types)})`);
  const names = p.getAll("event_name").flatMap((v) => v.split(","));
  if (names.length) where.push(`event_name = ANY($${args.push(names)})`);
  const creator = p.get("created_by");
  if (creator) where.push(`created_by = $${args.push(creator)}`);
  const dateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  const from = p.get("from_date");
  if (from) {
    where.push(
      dateOnly(from)
        ? `date >= ($${args.push(from)}::date)::timestamp AT TIME ZONE 'UTC'`
        : `date >= $${args.push(from)}::timestamptz`,
    );
  }
  const to = p.get("to_date");
  if (to) {
    // A date-only to_date includes its whole UTC day.
    where.push(
      dateOnly(to)
        ? `date < ($${args.push(to)}::date + 1)::timestamp AT TIME ZONE 'UTC'`
        : `date <= $${args.push(to)}::timestamptz`,
    );
  }
  const { rows } = await sql.query<{ n: string }>(
    `SELECT count(*) AS n FROM transactions WHERE ${where.join(" AND ")}`,
    args,
  );
  return Number(rows[0]?.n);
}

async function facetValues(playerId: string) {
  const { rows } = await sql.query<{ name: string; creator: string; min: Date; max: Date }>(
    `SELECT event_name AS name, created_by AS creator, min(date) AS min, max(date) AS max
     FROM transactions WHERE player_id = $1 GROUP BY 1, 2`,
    [playerId],
  );
  return rows;
}

function randomQuery(rng: ReturnType<typeof createRng>, values: Awaited<ReturnType<typeof facetValues>>) {
  const p = new URLSearchParams();
  const min = Math.min(...values.map((v) => v.min.getTime()));
  const max = Math.max(...values.map((v) => v.max.getTime()));
  const instant = () => new Date(min - 86_400_000 + Math.floor(rng.next() * (max - min + 2 * 86_400_000)));
  if (rng.chance(0.4)) {
    for (const t of EVENT_TYPES) if (rng.chance(0.3)) p.append("event_type", t);
  }
  if (rng.chance(0.3)) p.append("event_name", rng.pick(values).name);
  if (rng.chance(0.2)) p.append("created_by", rng.pick(CREATORS));
  const bound = () => {
    const at = instant();
    const kind = rng.int(0, 3);
    // Midnights, arbitrary milliseconds and whole days: whole days are read from the stats, the rest row by row.
    if (kind === 0) return at.toISOString().slice(0, 10);
    if (kind === 1) return `${at.toISOString().slice(0, 10)}T00:00:00Z`;
    return at.toISOString();
  };
  let from = rng.chance(0.6) ? bound() : undefined;
  let to = rng.chance(0.6) ? bound() : undefined;
  if (from && to && Date.parse(from) > Date.parse(to)) [from, to] = [to, from];
  if (from) p.append("from_date", from);
  if (to) p.append("to_date", to);
  return p.toString();
}

describe("countPlayerTransactions: exact, compared with a plain count(*)", () => {
  it("agrees on 150 random filter combinations for the whale and the fixture player", async () => {
    const rng = createRng(4242);
    let compared = 0;
    let nonZero = 0;
    for (const playerId of [WHALE, FIXTURE_PLAYER_ID]) {
      const values = await facetValues(playerId);
      for (let i = 0; i < 75; i++) {
        const qs = randomQuery(rng, values);
        let filters: ReturnType<typeof filtersOf>;
        try {
          filters = filtersOf(qs);
        } catch (error) {
          // Only "from after to" is a 400 here (nothing to count); any other rejection is a failure.
          expect(error, qs).toBeInstanceOf(ApiError);
          expect(
            (error as ApiError).errors?.map((e) => e.detail),
            qs,
          ).toEqual(["must not be after to_date"]);
          continue;
        }
        const expected = await plainCount(playerId, qs);
        expect(await countPlayerTransactions({ playerId, filters }, db), `${playerId}?${qs}`).toBe(expected);
        compared++;
        if (expected > 0) nonZero++;
      }
    }
    // The seed's draws (4242) give 150 valid queries, most of them matching rows: a drift that rejected or
    // emptied them would otherwise pass unnoticed.
    expect(compared).toBe(150);
    expect(nonZero).toBeGreaterThan(75);
  });

  it("agrees at the day edges: bounds on a midnight, 1 ms either side, within one day", async () => {
    const day = FIXTURE_BOUNDS.day;
    for (const qs of [
      `from_date=${day}&to_date=${day}`,
      `from_date=${day}T00:00:00.000Z&to_date=${day}T23:59:59.999Z`,
      `from_date=${day}T00:00:00.001Z&to_date=${day}T23:59:59.998Z`,
      `from_date=2025-03-09T23:59:59.999Z`,
      `to_date=2025-03-11T00:00:00.000Z`,
      `from_date=${FIXTURE_BOUNDS.from}&to_date=${FIXTURE_BOUNDS.to}`,
      `from_date=2025-03-09T12:00:00Z&to_date=2025-03-12T12:00:00Z&event_type=deposit,bet`,
    ]) {
      expect(
        await countPlayerTransactions({ playerId: FIXTURE_PLAYER_ID, filters: filtersOf(qs) }, db),
        qs,
      ).toBe(await plainCount(FIXTURE_PLAYER_ID, qs));
    }
  });

  it("is 0 for bounds beyond year 9999 and counts everything up to such a to_date", async () => {
    const all = await plainCount(WHALE, "");
    expect(
      await countPlayerTransactions({ playerId: WHALE, filters: filtersOf("to_date=9999-12-31") }, db),
    ).toBe(all);
    expect(
      await countPlayerTransactions(
        { playerId: WHALE, filters: filtersOf("to_date=9999-12-31T23:59:59.999Z") },
        db,
      ),
    ).toBe(all);
    expect(
      await countPlayerTransactions(
        { playerId: WHALE, filters: filtersOf("from_date=9999-12-31T23:59:59.999Z") },
        db,
      ),
    ).toBe(0);
  });
});

describe("transaction_daily_stats: kept current by the database", () => {
  const PLAYER = "PTEST-STATS";
  const fresh = `
    SELECT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type::text, event_name, created_by,
           count(*)::int AS n, (count(*) FILTER (WHERE status = 'completed'))::int AS completed_n,
           (count(*) FILTER (WHERE status = 'failed'))::int AS failed_n,
           (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled_n,
           COALESCE(sum(abs(amount)) FILTER (WHERE status = 'completed'), 0)::numeric(30, 8)::text AS completed_amount
    FROM transactions WHERE player_id = $1 GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
  const kept = `
    SELECT player_id, day, event_type::text, event_name, created_by, n, completed_n, failed_n, cancelled_n,
           completed_amount::text
    FROM transaction_daily_stats WHERE player_id = $1 ORDER BY 1, 2, 3, 4, 5`;
  const same = async () => {
    const [a, b] = await Promise.all([sql.query(fresh, [PLAYER]), sql.query(kept, [PLAYER])]);
    expect(b.rows).toEqual(a.rows);
    return b.rows.length;
  };

  it("follows inserts, updates (also of the day, type and completion), deletes and cascades", async () => {
    await sql.query("DELETE FROM players WHERE id = $1", [PLAYER]);
    await sql.query(
      `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Stats Test', 'EUR', '2025-01-01Z')`,
      [PLAYER],
    );
    try {
      await sql.query(
        `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at, completed_at, status)
         SELECT 'STX' || g, $1, timestamptz '2025-05-01 23:59:59.999Z' + (g % 3) * interval '1 ms',
                (ARRAY['bet','win','deposit']::event_type[])[1 + g % 3], 'Game ' || (g % 2), (g * 1.25)::numeric,
                'EUR', 'System', now(), CASE WHEN g % 4 = 0 THEN NULL ELSE now() END,
                (CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'completed' END)::transaction_status
         FROM generate_series(1, 40) g`,
        [PLAYER],
      );
      expect(await same()).toBeGreaterThan(4);
      await sql.query(
        `UPDATE transactions SET date = date + interval '2 days', completed_at = now(), status = 'completed' WHERE player_id = $1 AND id IN ('STX1','STX4','STX8')`,
        [PLAYER],
      );
      await same();
      // Failed and cancelled (issue 24): counted apart, never in the completed figures, also when a completed
      // one turns failed.
      await sql.query(
        `UPDATE transactions SET completed_at = NULL,
                status = (CASE WHEN id IN ('STX12', 'STX2') THEN 'failed' ELSE 'cancelled' END)::transaction_status
         WHERE player_id = $1 AND id IN ('STX12', 'STX2', 'STX16', 'STX5')`,
        [PLAYER],
      );
      const statuses = await sql.query<{ failed: number; cancelled: number }>(
        `SELECT sum(failed_n)::int AS failed, sum(cancelled_n)::int AS cancelled FROM transaction_daily_stats WHERE player_id = $1`,
        [PLAYER],
      );
      expect(statuses.rows[0]).toEqual({ failed: 2, cancelled: 2 });
      await same();
      await sql.query(
        `UPDATE transactions SET event_type = 'refund', event_name = 'Renamed', amount = -amount WHERE player_id = $1 AND id LIKE 'STX1%'`,
        [PLAYER],
      );
      await same();
      await sql.query(`DELETE FROM transactions WHERE player_id = $1 AND id LIKE 'STX2%'`, [PLAYER]);
      await same();
    } finally {
      await sql.query("DELETE FROM players WHERE id = $1", [PLAYER]); // cascades to its transactions
    }
    expect(await same()).toBe(0);
  });

  it("agrees with a fresh count for every player of the seeded data", async () => {
    const { rows } = await sql.query<{ differing: number }>(`
      WITH fresh AS (
        SELECT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type, event_name, created_by,
               count(*)::int AS n, (count(*) FILTER (WHERE completed_at IS NOT NULL))::int AS completed_n,
               COALESCE(sum(abs(amount)) FILTER (WHERE completed_at IS NOT NULL), 0) AS completed_amount
        FROM transactions GROUP BY 1, 2, 3, 4, 5)
      SELECT count(*)::int AS differing FROM fresh f
      FULL JOIN transaction_daily_stats s USING (player_id, day, event_type, event_name, created_by)
      WHERE f.n IS DISTINCT FROM s.n OR f.completed_n IS DISTINCT FROM s.completed_n
         OR f.completed_amount IS DISTINCT FROM s.completed_amount`);
    expect(rows[0]?.differing).toBe(0);
  });
});

describe("status filter: all four states (issue 24)", () => {
  const PLAYER = "PTEST-STATUS4";

  it("counts and lists pending, completed, failed and cancelled exactly, from whole days and partial ones", async () => {
    const { listPlayerTransactions } = await import("./list-player-transactions.ts");
    await sql.query("DELETE FROM players WHERE id = $1", [PLAYER]);
    await sql.query(
      `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Status Test', 'EUR', '2025-01-01Z')`,
      [PLAYER],
    );
    try {
      // 60 transactions over 10 days; states by g % 4 (completed_at set exactly when completed).
      await sql.query(
        `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                                   created_at, completed_at, status)
         SELECT 'ST4-' || g, $1, timestamptz '2025-06-01Z' + g * interval '4 hours', 'withdrawal', 'Card Withdrawal',
                -g, 'EUR', 'System', now(),
                CASE WHEN g % 4 = 1 THEN now() END,
                (ARRAY['pending','completed','failed','cancelled'])[1 + g % 4]::transaction_status
         FROM generate_series(1, 60) g`,
        [PLAYER],
      );
      for (const status of ["pending", "completed", "failed", "cancelled"] as const) {
        for (const qs of [
          `status=${status}`,
          `status=${status}&from_date=2025-06-02T05:00:00Z&to_date=2025-06-09T13:00:00Z`,
        ]) {
          const plain = await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM transactions WHERE player_id = $1 AND status = $2
               AND date >= COALESCE($3::timestamptz, '-infinity') AND date <= COALESCE($4::timestamptz, 'infinity')`,
            [
              PLAYER,
              status,
              qs.includes("from_date") ? "2025-06-02T05:00:00Z" : null,
              qs.includes("to_date") ? "2025-06-09T13:00:00Z" : null,
            ],
          );
          const filters = filtersOf(qs);
          expect(await countPlayerTransactions({ playerId: PLAYER, filters }, db), qs).toBe(plain.rows[0]?.n);
          const page = await listPlayerTransactions({ playerId: PLAYER, filters, limit: 100, offset: 0 }, db);
          expect(page?.total, qs).toBe(plain.rows[0]?.n);
          expect(new Set(page?.transactions.map((t) => t.status)), qs).toEqual(new Set([status]));
          expect(
            page?.transactions.every((t) => (t.completed_at !== null) === (status === "completed")),
            qs,
          ).toBe(true);
        }
      }
    } finally {
      await sql.query("DELETE FROM players WHERE id = $1", [PLAYER]);
    }
  });
});
