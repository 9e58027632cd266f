import "server-only";
import {
  type BulkKey,
  type BulkTransactionsResponse,
  encodeBulkCursor,
} from "@/features/transactions/schema/bulk-transaction";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { JsonText } from "@/platform/schemas/json-text";

/**
 * One row as JSON text, written by the statement in the schema's key order (BulkTransaction: the list's row, then
 * player_id), with the digits and instants the list's mapper (toTransaction) writes: canonical numbers
 * (trim_scale), instants as toISOString writes them. Decoding 15 columns per row and writing the JSON in the app
 * took 59 ms of a 1,000-row page whose statement took 8.5 ms (docs/performance.md, "Machine copy"); the test compares
 * the text with the mapper's, byte for byte.
 */
const iso = (column: string) =>
  `to_json(to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;
const text = (column: string) => `to_json(${column})::text`;
const orNull = (json: string) => `COALESCE(${json}, 'null')`;
const FIELDS: readonly (readonly [string, string])[] = [
  ["id", text("t.id")],
  ["date", iso("t.date")],
  ["event_type", text("t.event_type")],
  ["event_name", text("t.event_name")],
  ["event_note", orNull(text("t.event_note"))],
  ["amount", "trim_scale(t.amount)::text"],
  ["currency", text("t.currency")],
  ["payment_method", orNull(text("t.payment_method"))],
  ["created_by", text("t.created_by")],
  ["created_at", iso("t.created_at")],
  ["completed_at", orNull(iso("t.completed_at"))],
  ["status", text("t.status")],
  ["updated_at", iso("t.updated_at")],
  ["player_id", text("t.player_id")],
];
const ROW_JSON = Prisma.raw(
  `${FIELDS.map(([key, json], i) => `'${i === 0 ? "{" : ","}"${key}":' || ${json}`).join(" || ")} || '}'`,
);

interface JsonRow {
  id: string;
  player_id: string;
  updated_at: Date;
  json: string;
}

/** A page's JSON text, with the paging fields beside it: the route's `Link` needs them without parsing the text. */
export class BulkPageText extends JsonText<BulkTransactionsResponse> {
  readonly has_more: boolean;
  readonly next_cursor: string | null;

  constructor(text: string, paging: { has_more: boolean; next_cursor: string | null }) {
    super(text);
    this.has_more = paging.has_more;
    this.next_cursor = paging.next_cursor;
  }
}

export interface BulkPage {
  /** The answer's body (BulkTransactionsResponse) as JSON text. */
  body: BulkPageText;
  rows: number;
  /** The distinct players of the page's rows, in first-seen order (the audit record names them). */
  playerIds: string[];
}

export interface ListTransactionsBulkOptions {
  /** Keep the transactions whose updated_at is at or after this instant. */
  since?: Date | undefined;
  /** Continue after this row. */
  after?: BulkKey | undefined;
  limit: number;
}

async function readRows(db: PrismaClient, where: Prisma.Sql, limit: number | null): Promise<JsonRow[]> {
  const take = limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`;
  return db.$queryRaw<JsonRow[]>(
    Prisma.sql`SELECT t.id, t.player_id, t.updated_at, ${ROW_JSON} AS json FROM transactions t ${where}
      ORDER BY t.updated_at, t.id ${take}`,
  );
}

function toPage(rows: readonly JsonRow[], hasMore: boolean): BulkPage {
  const last = rows.at(-1);
  const next = hasMore && last ? encodeBulkCursor({ updatedAt: last.updated_at, id: last.id }) : null;
  const text = `{"transactions":[${rows.map((r) => r.json).join(",")}],"has_more":${hasMore},"next_cursor":${JSON.stringify(next)}}`;
  return {
    body: new BulkPageText(text, { has_more: hasMore, next_cursor: next }),
    rows: rows.length,
    playerIds: [...new Set(rows.map((r) => r.player_id))],
  };
}

/**
 * One page of every player's transactions in (updated_at, id) order, ascending, after a key. The row comparison
 * `(updated_at, id) > (key)` is an index condition on transactions_updated_at_id_idx, so a page costs the same at
 * any depth (an index range scan of limit + 1 entries, the extra one telling whether more follow).
 */
export async function listTransactionsBulk(
  options: ListTransactionsBulkOptions,
  db: PrismaClient = getPrisma(),
): Promise<BulkPage> {
  const { since, after, limit } = options;
  const where: Prisma.Sql[] = [];
  if (since) where.push(Prisma.sql`t.updated_at >= ${since}::timestamptz`);
  if (after) where.push(Prisma.sql`(t.updated_at, t.id) > (${after.updatedAt}::timestamptz, ${after.id})`);
  const whereSql = where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;
  const rows = await readRows(db, whereSql, limit + 1);
  const hasMore = rows.length > limit;
  return toPage(hasMore ? rows.slice(0, limit) : rows, hasMore);
}

/** The named transactions of any players that exist, in (updated_at, id) order; unknown ids are left out. */
export async function getTransactionsByIds(
  options: { ids: readonly string[] },
  db: PrismaClient = getPrisma(),
): Promise<BulkPage> {
  const ids = [...new Set(options.ids)];
  const rows = await readRows(db, Prisma.sql`WHERE t.id = ANY(${ids}::text[])`, null);
  return toPage(rows, false);
}
