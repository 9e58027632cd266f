/** One part of a book as its statement returned it: each player's JSON text and id, in byte order of the id. */
export interface BookPart {
  players: string[];
  ids: string[];
}

/** PostgreSQL's "C" collation orders text by its UTF-8 bytes; JavaScript's `<` compares UTF-16 code units. */
const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/**
 * The parts of a book, each ordered by id (`COLLATE "C"`), merged into one list in that order. A player is in
 * exactly one part (the parts split the book by a hash of the id), so the merge only interleaves.
 */
export function mergeBookParts(parts: readonly BookPart[]): BookPart {
  const merged: BookPart = { players: [], ids: [] };
  const next = parts.map(() => 0);
  for (;;) {
    let pick = -1;
    for (const [p, part] of parts.entries()) {
      const id = part.ids[next[p] ?? 0];
      const best = parts[pick]?.ids[next[pick] ?? 0];
      if (id !== undefined && (best === undefined || utf8Order(id, best) < 0)) pick = p;
    }
    const part = parts[pick];
    if (!part) return merged;
    const i = next[pick] ?? 0;
    merged.ids.push(part.ids[i] ?? "");
    merged.players.push(part.players[i] ?? "");
    next[pick] = i + 1;
  }
}
