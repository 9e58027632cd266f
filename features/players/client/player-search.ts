import { contactKind, emailTerm } from "@/features/players/data/contact-terms";
import { formatCount } from "@/platform/format/money";

/*
 * The lookup's rules, apart from React: what Enter opens, how the arrow keys move the highlight, and what
 * the status line says (features/players/client/use-player-search.ts puts them together).
 */

/** Something typed that can only be an id: no spaces, no @, at least one digit. */
export const looksLikeId = (q: string) => /^[^\s@]*\d[^\s@]*$/.test(q);

/**
 * Enter without a highlighted result: an exact id, a single match or a direct id opens a profile (a missing one
 * says "not found" there); a transaction id alone opens its player's transactions on it; several matches
 * highlight the first; nothing else happens.
 */
export function bestMatch(
  q: string,
  players: readonly { id: string }[],
  transactions: readonly { id: string; player_id: string }[] = [],
): { open: string; transactionId?: string } | { highlight: number } | null {
  const exact = players.find((p) => p.id.toLowerCase() === q.toLowerCase());
  if (exact) return { open: exact.id };
  const [only] = transactions;
  if (only && transactions.length === 1 && players.length === 0) {
    return { open: only.player_id, transactionId: only.id };
  }
  const count = transactions.length + players.length;
  if (count === 1 && players[0]) return { open: players[0].id };
  if (count === 0) return looksLikeId(q) ? { open: q } : null;
  return { highlight: 0 };
}

/** Where a result opens: a player's profile, or their transactions filtered to one transaction. */
export function resultHref(playerId: string, transactionId?: string): string {
  const profile = `/players/${encodeURIComponent(playerId)}`;
  return transactionId
    ? `${profile}?${new URLSearchParams({ section: "transactions", transaction_id: transactionId })}`
    : profile;
}

/**
 * For a caller who sees contact data masked: a term with an "@" that is not a whole address. Such a term
 * matches nobody by design (a part of an address must reveal nothing), so the page says to type it in full.
 */
export function isPartialEmail(term: string): boolean {
  return term.includes("@") && emailTerm(term) === null;
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
  /** Transactions found by their id (listed before the players). */
  transactions?: number;
  shown: number;
  /** The caller sees contact data masked and typed a part of an e-mail address (see isPartialEmail). */
  partialEmail: boolean;
  mine: boolean;
  term: string;
}

/** The status line under the search box (read out by screen readers). */
export function searchStatus(s: SearchState): string {
  if (!s.listing) return "";
  if (s.failed) return "The search failed.";
  if (s.total === undefined) return "Searching…";
  if (s.transactions) {
    const found = s.transactions === 1 ? "1 transaction" : `${s.transactions} transactions`;
    if (s.total === 0) return `${found} found by id. Press Enter to open it in its player's transactions.`;
    return `${found} found by id, and ${formatCount(s.total)} ${s.total === 1 ? "player" : "players"}.`;
  }
  if (s.partialEmail && s.total === 0) return "Type the whole e-mail address: a part of one matches nobody.";
  if (s.total === 0)
    return s.mine && !s.term ? "No players are assigned to you." : `No players match “${s.term}”.`;
  if (s.total > s.shown)
    return `Showing the first ${s.shown} of ${formatCount(s.total)} players. Type more to narrow the search.`;
  return `${formatCount(s.total)} ${s.total === 1 ? "player" : "players"} found.`;
}

/** What the lookup's label says the agent can search by. */
export function searchLabel(s: { mine: boolean; canSearchEmail: boolean }): string {
  if (s.mine) return "Filter my players by name or player ID";
  return s.canSearchEmail
    ? "Search by name, player ID, e-mail, phone number or transaction ID"
    : "Search by name, player ID, or an exact e-mail or phone number";
}

/** The empty result's sentence: an exact contact term says it was matched whole. */
export function noMatchText(s: { mine: boolean; term: string; canSearchEmail: boolean }): string {
  if (s.mine && !s.term) return "No players are assigned to you.";
  const who = s.mine ? "player of yours" : "player";
  const kind = contactKind(s.term);
  if (kind === "phone") return `No ${who} has the phone number “${s.term}”, and no id or name contains it.`;
  if (kind === "email" && !s.canSearchEmail) return `No ${who} has exactly the e-mail address “${s.term}”.`;
  const fields = s.canSearchEmail ? "an id, name or e-mail address" : "an id or name";
  return `No ${who} has ${fields} containing “${s.term}”, and no transaction has that id.`;
}
