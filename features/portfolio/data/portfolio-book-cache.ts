/**
 * The portfolio's players as last computed, per book, kept so that a book re-read computes only the players whose
 * figures may have changed since (docs/decisions.md, "The portfolio's kept rows"). Nothing here is trusted on its
 * own: every read first asks the database which of the book's players the change feed names since the rows were
 * computed (get-portfolio.ts), and a row also ends at the first instant its figures depend on the clock
 * (`validUntil`: the next UTC midnight, a withdrawal leaving the 7 days, a pending one turning 24 h old).
 */

/** One player of a kept book: its JSON text and the instant (ms) from which the text may no longer hold. */
export interface KeptPlayer {
  json: string;
  validUntil: number;
}

export interface KeptBook {
  /** The database the rows came from (its oid): change positions compare only within one. */
  database: string;
  /** The flag rules the rows were computed with (their JSON). */
  rules: string;
  /** The portfolio's UTC day (`YYYY-MM-DD`): every day window moves with it. */
  day: string;
  /** The latest instant (ms) the book was answered for: an earlier one is computed afresh. */
  asOf: number;
  /** The change feed's last position when the rows were known current: any change after it is checked. */
  tail: bigint;
  /** The book's ids in the body's order, with each player's row. */
  ids: string[];
  players: Map<string, KeptPlayer>;
  /** The players' JSON joined as the body holds them (`ids`' order), as UTF-8, reused while no row changes. */
  joined: Uint8Array;
}

/** What the database says now, read in one snapshot (get-portfolio.ts, `bookStateSql`). */
export interface BookState {
  database: string;
  tail: bigint;
  /** The book's ids now, in byte order. */
  ids: string[];
  /** The players the change feed names after the kept tail, or "all" (a reset, too many changes, no kept book). */
  changed: ReadonlySet<string> | "all";
}

/** Which of the book's players must be computed now; the others' kept rows are current. */
export function playersToCompute(
  kept: KeptBook | undefined,
  state: BookState,
  now: { rules: string; day: string; asOf: number },
): string[] {
  const usable =
    kept !== undefined &&
    state.changed !== "all" &&
    kept.database === state.database &&
    kept.rules === now.rules &&
    kept.day === now.day &&
    kept.asOf <= now.asOf &&
    kept.tail <= state.tail;
  if (!usable) return state.ids;
  const changed = state.changed as ReadonlySet<string>;
  return state.ids.filter((id) => {
    const player = kept.players.get(id);
    return player === undefined || changed.has(id) || now.asOf >= player.validUntil;
  });
}

/** The books answered most recently, at most `capacity` of them (least recently read dropped first). */
export class PortfolioBookCache {
  private readonly books = new Map<string, KeptBook>();

  constructor(readonly capacity: number) {}

  get(manager: string): KeptBook | undefined {
    const book = this.books.get(manager);
    if (book !== undefined) {
      this.books.delete(manager);
      this.books.set(manager, book);
    }
    return book;
  }

  /** Replaces the manager's book whole: a concurrent read that finishes later replaces it again, consistently. */
  set(manager: string, book: KeptBook): void {
    if (this.capacity < 1) return;
    this.books.delete(manager);
    this.books.set(manager, book);
    for (const oldest of this.books.keys()) {
      if (this.books.size <= this.capacity) break;
      this.books.delete(oldest);
    }
  }

  get size(): number {
    return this.books.size;
  }
}
