/**
 * One part of a book as its statement returned it: each player's JSON text, id and the instant (ms) its row may
 * stop holding (get-portfolio.ts, validUntilSql), in byte order of the id.
 */
export interface BookPart {
  players: string[];
  ids: string[];
  validUntil: number[];
}

/**
 * The parts of a book merged into one list ordered as PostgreSQL's "C" collation orders the ids: by their UTF-8
 * bytes (JavaScript's `<` compares UTF-16 code units, which differs above U+FFFF). A player is in exactly one part
 * (the parts split the book by a hash of the id), so every id appears once.
 */
export function mergeBookParts(parts: readonly BookPart[]): BookPart {
  const rows = parts.flatMap((part) =>
    part.ids.map((id, i) => ({
      id,
      key: Buffer.from(id, "utf8"),
      player: part.players[i] ?? "",
      validUntil: part.validUntil[i] ?? 0,
    })),
  );
  rows.sort((a, b) => Buffer.compare(a.key, b.key));
  return {
    players: rows.map((r) => r.player),
    ids: rows.map((r) => r.id),
    validUntil: rows.map((r) => r.validUntil),
  };
}
