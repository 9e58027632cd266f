import type { TransactionFilters } from "@/lib/schemas/transaction";

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
