import { formatCount } from "@/lib/format/money";

/*
 * The lookup's rules, apart from React: what Enter opens, how the arrow keys move the highlight, and what
 * the status line says (lib/hooks/use-player-search.ts puts them together).
 */

/** Something typed that can only be an id: no spaces, no @, at least one digit. */
export const looksLikeId = (q: string) => /^[^\s@]*\d[^\s@]*$/.test(q);

/**
 * Enter without a highlighted result: an exact id, a single match or a direct id opens a profile (a missing one
 * says "not found" there); several matches highlight the first; nothing else happens.
 */
export function bestMatch(
  q: string,
  players: readonly { id: string }[],
): { open: string } | { highlight: number } | null {
  const exact = players.find((p) => p.id.toLowerCase() === q.toLowerCase());
  if (exact) return { open: exact.id };
  if (players.length === 1 && players[0]) return { open: players[0].id };
  if (players.length === 0) return looksLikeId(q) ? { open: q } : null;
  return { highlight: 0 };
}

/** The highlighted result after `key` (-1: none), or null when the key does not move it. */
export function moveHighlight(key: string, active: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return (active + 1) % count;
    case "ArrowUp":
      return active <= 0 ? count - 1 : active - 1;
    case "Home":
      return active >= 0 ? 0 : null;
    case "End":
      return active >= 0 ? count - 1 : null;
    default:
      return null;
  }
}

export interface SearchState {
  /** A term typed, or the "My players" view: results are listed. */
  listing: boolean;
  failed: boolean;
  total: number | undefined;
  shown: number;
  /** The term holds an "@" the caller's role may not search by. */
  emailNeedsPii: boolean;
  mine: boolean;
  term: string;
}

/** The status line under the search box (read out by screen readers). */
export function searchStatus(s: SearchState): string {
  if (!s.listing) return "";
  if (s.failed) return "The search failed.";
  if (s.total === undefined) return "Searching…";
  if (s.emailNeedsPii && s.total === 0) return "E-mail search needs the players:pii scope.";
  if (s.total === 0)
    return s.mine && !s.term ? "No players are assigned to you." : `No players match “${s.term}”.`;
  if (s.total > s.shown)
    return `Showing the first ${s.shown} of ${formatCount(s.total)} players. Type more to narrow the search.`;
  return `${formatCount(s.total)} ${s.total === 1 ? "player" : "players"} found.`;
}

/** The empty result's sentence. */
export function noMatchText(s: { mine: boolean; term: string; canSearchEmail: boolean }): string {
  if (s.mine && !s.term) return "No players are assigned to you.";
  const fields = s.canSearchEmail ? "an id, name or email" : "an id or name";
  return `No ${s.mine ? "player of yours" : "player"} has ${fields} containing “${s.term}”.`;
}
