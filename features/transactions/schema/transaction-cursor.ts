/*
 * Keyset cursor for a player's transactions: the (date, id) of the last row a caller has seen. The list order
 * (date DESC, id DESC) is total, so "every row before this key" continues a listing exactly, whatever was read
 * before, and costs the same at any depth (an index range scan starting at the key).
 * On the wire the cursor is opaque: base64url of `<epoch milliseconds>.<id>`.
 */

export interface TransactionKey {
  date: Date;
  id: string;
  /** The amount's size (absolute value) as exact decimal text: part of the key of the amount sorts only. */
  amount?: string;
}

/**
 * The list orders: by `date` or by the size of `amount` (its absolute value), each either way, `id` breaking ties in the same direction,
 * so every order is total. date_desc is the default.
 */
export const TRANSACTION_SORTS = ["date_desc", "date_asc", "amount_desc", "amount_asc"] as const;
export type TransactionSort = (typeof TRANSACTION_SORTS)[number];

/** A cursor names the order it was issued for: continuing it in another order would skip or repeat rows. */
export interface TransactionCursor {
  sort: TransactionSort;
  key: TransactionKey;
}

const ID = /^[^\p{Cc}]{1,64}$/u;
/** 0001-01-01 … 9999-12-31: the instants the API can write as ISO 8601. */
const EARLIEST = new Date(0).setUTCFullYear(1, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function encodeTransactionCursor(key: TransactionKey): string {
  return Buffer.from(`${key.date.getTime()}.${key.id}`, "utf8").toString("base64url");
}

/** The key a cursor stands for, or null when it is not one this API issued (garbled, truncated, edited). */
export function decodeTransactionCursor(cursor: string): TransactionKey | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // Decoding is lenient about trailing bits; a cursor must be exactly the encoding of its key.
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return null;
  const match = /^(-?\d{1,15})\.(.+)$/su.exec(text);
  if (!match) return null;
  const ms = Number(match[1]);
  const id = match[2] ?? "";
  if (!Number.isSafeInteger(ms) || ms < EARLIEST || ms > LATEST || !ID.test(id)) return null;
  return { date: new Date(ms), id };
}

/** The amount orders sort by size: their cursors carry an amount's size, never a sign. */
const AMOUNT = /^(0|[1-9]\d{0,29})(\.\d{1,8})?$/;

/**
 * A cursor for any order. date_desc cursors keep the original layout (`<ms>.<id>`, so cursors issued before sorting
 * existed still work); the other orders write `<sort>~<ms>~<amount>~<id>` (the amount empty for date orders).
 */
export function encodeSortedCursor(cursor: TransactionCursor): string {
  const { sort, key } = cursor;
  if (sort === "date_desc") return encodeTransactionCursor(key);
  const amount = sort.startsWith("amount") ? (key.amount ?? "") : "";
  return Buffer.from(`${sort}~${key.date.getTime()}~${amount}~${key.id}`, "utf8").toString("base64url");
}

/** The order and key a cursor stands for, or null when it is not one this API issued. */
export function decodeSortedCursor(cursor: string): TransactionCursor | null {
  const plain = decodeTransactionCursor(cursor);
  if (plain) return { sort: "date_desc", key: plain };
  if (!/^[A-Za-z0-9_-]{1,500}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (Buffer.from(text, "utf8").toString("base64url") !== cursor) return null;
  const match = /^(date_asc|amount_desc|amount_asc)~(-?\d{1,15})~([^~]*)~(.+)$/su.exec(text);
  if (!match) return null;
  const sort = match[1] as Exclude<TransactionSort, "date_desc">;
  const ms = Number(match[2]);
  const amount = match[3] ?? "";
  const id = match[4] ?? "";
  if (!Number.isSafeInteger(ms) || ms < EARLIEST || ms > LATEST || !ID.test(id)) return null;
  const byAmount = sort !== "date_asc";
  if (byAmount ? !AMOUNT.test(amount) : amount !== "") return null;
  return { sort, key: byAmount ? { date: new Date(ms), id, amount } : { date: new Date(ms), id } };
}
