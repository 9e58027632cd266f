import type { TransactionFilters } from "@/features/transactions/schema/transaction";
import type { TransactionKey, TransactionSort } from "@/features/transactions/schema/transaction-cursor";
import { Prisma } from "@/platform/db/generated/client";
import { type InstantRange, sortColumn } from "./transaction-where.ts";

/**
 * The SQL forms of transactionWhere, afterKey and listOrder, for the reads Prisma's query builder cannot state:
 * the amount orders sort by size, `abs(amount)`, an expression (served by the expression indexes of
 * prisma/migrations/20261126020000_amount_size_sort), and the export reads rows as text. Same meaning as the
 * Prisma forms: the tests compare the list in both forms and the export with the paged list.
 */
export function transactionWhereSql(
  playerId: string,
  f: TransactionFilters,
  range: InstantRange,
): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`t.player_id = ${playerId}`];
  if (f.event_type) where.push(Prisma.sql`t.event_type = ANY(${f.event_type}::event_type[])`);
  if (f.event_name) where.push(Prisma.sql`t.event_name = ANY(${f.event_name}::text[])`);
  if (f.created_by) where.push(Prisma.sql`t.created_by = ${f.created_by}`);
  if (f.status) where.push(Prisma.sql`t.status = ${f.status}::transaction_status`);
  if (f.transaction_id) where.push(Prisma.sql`t.id = ${f.transaction_id}`);
  if (range.from) where.push(Prisma.sql`t.date >= ${range.from}::timestamptz`);
  if (range.until) where.push(Prisma.sql`t.date < ${range.until}::timestamptz`);
  return Prisma.join(where, " AND ");
}

/** The expression a sort orders by: `t.date`, or the amount's size `abs(t.amount)` (as the index states it). */
export function sortKeySql(sort: TransactionSort): Prisma.Sql {
  return Prisma.raw(sortColumn(sort)[0] === "amount" ? "abs(t.amount)" : "t.date");
}

/**
 * Rows after `key` in the order `sort`. As in afterKey, the redundant bound (`key ≤ value`) is the index
 * condition, so the scan starts at the key; the OR picks the rows past it, `id` breaking ties.
 */
export function afterKeySql(key: TransactionKey, sort: TransactionSort): Prisma.Sql {
  const [column, direction] = sortColumn(sort);
  const value =
    column === "amount" ? Prisma.sql`${key.amount ?? "0"}::numeric` : Prisma.sql`${key.date}::timestamptz`;
  const [atOrPast, past] = direction === "desc" ? (["<=", "<"] as const) : ([">=", ">"] as const);
  const col = sortKeySql(sort);
  return Prisma.sql`${col} ${Prisma.raw(atOrPast)} ${value} AND (${col} ${Prisma.raw(past)} ${value} OR (${col} = ${value} AND t.id ${Prisma.raw(past)} ${key.id}))`;
}

/** ORDER BY for a sort: a total order, `id` breaking ties in the same direction. */
export function orderBySql(sort: TransactionSort): Prisma.Sql {
  const dir = Prisma.raw(sortColumn(sort)[1] === "desc" ? "DESC" : "ASC");
  return Prisma.sql`${sortKeySql(sort)} ${dir}, t.id ${dir}`;
}
