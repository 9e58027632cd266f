import type pg from "pg";
import { expect } from "vitest";
import type { TransactionFilters } from "@/features/transactions/schema/transaction";

/**
 * The transaction filters spelled out in plain SQL, as an independent reference for the data functions'
 * own queries: `WHERE` over `transactions` with $1 = the player id, and its parameters.
 */
export function referenceFilterSql(
  playerId: string,
  f: TransactionFilters,
): { where: string; params: unknown[] } {
  return {
    where: `WHERE player_id = $1
       AND ($2::text[] IS NULL OR event_type::text = ANY($2))
       AND ($3::text[] IS NULL OR event_name = ANY($3))
       AND ($4::text IS NULL OR created_by = $4)
       AND ($5::timestamptz IS NULL OR date >= $5)
       AND ($6::timestamptz IS NULL OR date <= $6)
       AND ($7::timestamptz IS NULL OR date < $7)
       AND ($8::text IS NULL OR ($8 = 'pending') = (completed_at IS NULL))
       AND ($9::text IS NULL OR id = $9)`,
    params: [
      playerId,
      f.event_type ?? null,
      f.event_name ?? null,
      f.created_by ?? null,
      f.from_date?.at ?? null,
      f.to_date && !f.to_date.exclusive ? f.to_date.at : null,
      f.to_date?.exclusive ? f.to_date.at : null,
      f.status ?? null,
      f.transaction_id ?? null,
    ],
  };
}

/** The ids of the player's transactions the filters keep, by the reference SQL, in `order` (an ORDER BY list). */
export async function referenceIds(
  sql: pg.Pool,
  playerId: string,
  f: TransactionFilters,
  order = "date DESC, id DESC",
): Promise<string[]> {
  const { where, params } = referenceFilterSql(playerId, f);
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM transactions ${where} ORDER BY ${order}`,
    params,
  );
  return rows.map((r) => r.id);
}

/** Expects a listed page to be the reference (every id the filters keep, in order) cut at its offset and limit. */
export function expectReferencePage(
  listed: { total: number; transactions: { id: string }[] } | null,
  reference: string[],
  page: { offset: number; limit: number },
  label: string,
): void {
  expect(listed?.total, label).toBe(reference.length);
  expect(
    listed?.transactions.map((t) => t.id),
    label,
  ).toEqual(reference.slice(page.offset, page.offset + page.limit));
}
