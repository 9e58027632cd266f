import type { RouteKit } from "./route-test-kit.ts";

/*
 * A machine client that keeps a copy of some profiles and of one player's transactions in step with the API,
 * as docs/change-feed.md tells it to: note the feed's tail, read everything, then follow the feed from that tail
 * and re-read only what the changes name. It keeps the feed's name with its position and sends it back; a 410
 * (another feed, or a position below the pruning horizon) starts it again with a full read. Its copy, compared
 * with a full re-read, is the feed's exactness test. With `records`, it asks for `include=record` and takes each
 * entry's record from the page instead of reading it again.
 */

export interface FeedChange {
  position: number;
  kind: string;
  player_id: string | null;
  transaction_id: string | null;
  changed_at: string;
  /** With `include=record` on player.* and transaction.* entries: the record now, null when deleted. */
  record?: unknown;
}

export interface FeedPage {
  changes: FeedChange[];
  next: number;
  has_more: boolean;
  tail: number;
  feed: string;
}

interface TransactionRow {
  id: string;
}

export interface SyncState {
  profiles: Map<string, unknown>;
  transactions: Map<string, unknown>;
}

export interface SyncStats {
  resets: number;
  /** Full reads after a 410 (`feed-gone`): another feed, or a position below the pruning horizon. */
  restarts: number;
  profileReads: number;
  transactionReads: number;
  pages: number;
}

export interface SyncerOptions {
  /** Ask for `include=record` and apply the records the pages carry (no read per change). */
  records?: boolean;
  /** Changes per page (default 1,000). */
  limit?: number;
}

export class ChangeFeedSyncer {
  readonly state: SyncState = { profiles: new Map(), transactions: new Map() };
  readonly stats: SyncStats = { resets: 0, restarts: 0, profileReads: 0, transactionReads: 0, pages: 0 };
  position = 0;
  /** The feed `position` belongs to (stored with it). */
  feed = "";

  constructor(
    private readonly kit: RouteKit,
    /** The profiles this client keeps (a CRM's own list of ids). */
    private readonly playerIds: readonly string[],
    /** The player whose transactions it keeps. */
    private readonly transactionsOf: string,
    private readonly options: SyncerOptions = {},
  ) {}

  private async get<T>(path: string, gone = false): Promise<{ status: number; body: T }> {
    const res = await this.kit.call("GET", path, { headers: { "x-session-id": "crm-sync-job" } });
    const expected = res.status === 200 || res.status === 404 || (gone && res.status === 410);
    if (!expected) throw new Error(`${path}: ${res.status} ${res.text}`);
    return { status: res.status, body: res.json as T };
  }

  /** The tail (and the feed) first, then everything: a change committed during the read is followed afterwards. */
  async fullSync(): Promise<void> {
    const head = (await this.get<FeedPage>("/api/v1/changes?limit=1")).body;
    this.position = head.tail;
    this.feed = head.feed;
    this.state.profiles.clear();
    this.state.transactions.clear();
    for (const id of this.playerIds) await this.readProfile(id);
    await this.readTransactions("");
  }

  private async readProfile(id: string): Promise<void> {
    this.stats.profileReads += 1;
    const { status, body } = await this.get<unknown>(`/api/v1/players/${encodeURIComponent(id)}`);
    if (status === 404) this.state.profiles.delete(id);
    else this.state.profiles.set(id, body);
  }

  /** The player's transactions (those changed since `since` when given), page by page with the cursor. */
  private async readTransactions(since: string): Promise<void> {
    const base = `/api/v1/players/${this.transactionsOf}/transactions?limit=100&sort=date_asc`;
    let cursor: string | null = null;
    do {
      const query: string = `${since ? `&updated_since=${encodeURIComponent(since)}` : ""}${cursor ? `&cursor=${cursor}` : ""}`;
      const page: { status: number; body: { transactions: TransactionRow[]; next_cursor: string | null } } =
        await this.get(base + query);
      if (page.status === 404) return;
      for (const t of page.body.transactions) this.state.transactions.set(t.id, t);
      this.stats.transactionReads += page.body.transactions.length;
      cursor = page.body.next_cursor;
    } while (cursor);
  }

  private async readTransaction(id: string): Promise<void> {
    const { status, body } = await this.get<{ transactions: TransactionRow[] }>(
      `/api/v1/players/${this.transactionsOf}/transactions?transaction_id=${encodeURIComponent(id)}`,
    );
    this.stats.transactionReads += 1;
    const row = status === 200 ? body.transactions[0] : undefined;
    if (row) this.state.transactions.set(id, row);
    else this.state.transactions.delete(id);
  }

  /** Follows the feed to its end; returns the number of changes applied. */
  async follow(): Promise<number> {
    let applied = 0;
    for (;;) {
      const { status, body } = await this.get<FeedPage>(
        `/api/v1/changes?after=${this.position}&feed=${this.feed}&limit=${this.options.limit ?? 1000}${this.options.records ? "&include=record" : ""}`,
        true,
      );
      this.stats.pages += 1;
      if (status === 410) {
        this.stats.restarts += 1;
        await this.fullSync();
        continue;
      }
      if (body.changes.some((c) => c.kind === "reset")) {
        this.stats.resets += 1;
        await this.fullSync(); // its tail is at or after this page's end
        applied += body.changes.length;
        if (!body.has_more) return applied;
        continue;
      }
      await this.apply(body.changes);
      applied += body.changes.length;
      this.position = body.next; // with this.feed: the two are stored together
      if (!body.has_more) return applied;
    }
  }

  /** One page's changes: each thing named is read again once, after the whole page. */
  private async apply(changes: readonly FeedChange[]): Promise<void> {
    const kept = new Set(this.playerIds);
    const profiles = new Set<string>();
    const transactions = new Set<string>();
    let since: string | null = null;
    for (const c of changes) {
      if (this.options.records && c.record !== undefined) {
        this.applyRecord(c, kept);
        continue;
      }
      if (c.kind.startsWith("player.") && c.player_id && kept.has(c.player_id)) profiles.add(c.player_id);
      if (c.player_id !== this.transactionsOf) continue;
      if (c.kind.startsWith("transaction.") && c.transaction_id) transactions.add(c.transaction_id);
      if (c.kind === "player.transactions_changed" && (since === null || c.changed_at < since))
        since = c.changed_at;
      if (c.kind === "player.deleted") this.state.transactions.clear();
    }
    for (const id of profiles) await this.readProfile(id);
    for (const id of transactions) await this.readTransaction(id);
    if (since !== null) await this.readTransactions(since);
  }

  /** An entry's record, as it is now: stored, or deleted when null (a deleted player takes its transactions). */
  private applyRecord(c: FeedChange, kept: ReadonlySet<string>): void {
    if (c.kind.startsWith("player.") && c.player_id && kept.has(c.player_id)) {
      if (c.record === null) this.state.profiles.delete(c.player_id);
      else this.state.profiles.set(c.player_id, c.record);
    }
    if (c.player_id !== this.transactionsOf) return;
    if (c.kind === "player.deleted" && c.record === null) this.state.transactions.clear();
    if (c.kind.startsWith("transaction.") && c.transaction_id) {
      if (c.record === null) this.state.transactions.delete(c.transaction_id);
      else this.state.transactions.set(c.transaction_id, c.record);
    }
  }
}
