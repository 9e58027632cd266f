/*
 * The signal to the pages (issue 24): after each batch the consumer runs, inside the batch's database
 * transaction (so listeners get it at COMMIT, never for a batch that rolled back),
 * `SELECT pg_notify('player_changes', <payload>)`, where payload is a JSON array of the changed players' ids.
 * PostgreSQL caps a payload below 8,000 bytes: the ids are split so that each payload stays within 7,000.
 */
export const PLAYER_CHANGES_CHANNEL = "player_changes";
export const PLAYER_CHANGES_MAX_BYTES = 7_000;

/** The ids as JSON arrays of at most `maxBytes` bytes each (UTF-8), in order, each id once. */
export function playerChangePayloads(ids: Iterable<string>, maxBytes = PLAYER_CHANGES_MAX_BYTES): string[] {
  const payloads: string[] = [];
  let current: string[] = [];
  let size = 2; // "[]"
  for (const id of new Set(ids)) {
    const item = JSON.stringify(id);
    const bytes = Buffer.byteLength(item) + (current.length ? 1 : 0);
    if (Buffer.byteLength(item) + 2 > maxBytes)
      throw new Error(`a player id too long to signal: ${id.slice(0, 40)}`);
    if (size + bytes > maxBytes) {
      payloads.push(`[${current.join(",")}]`);
      current = [];
      size = 2;
    }
    size += Buffer.byteLength(item) + (current.length ? 1 : 0);
    current.push(item);
  }
  if (current.length) payloads.push(`[${current.join(",")}]`);
  return payloads;
}
