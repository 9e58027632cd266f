/*
 * Keyset cursor for a player's transactions: the (date, id) of the last row a caller has seen. The list order
 * (date DESC, id DESC) is total, so "every row before this key" continues a listing exactly, whatever was read
 * before, and costs the same at any depth (an index range scan starting at the key).
 * On the wire the cursor is opaque: base64url of `<epoch milliseconds>.<id>`.
 */

export interface TransactionKey {
  date: Date;
  id: string;
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
