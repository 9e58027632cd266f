import type { FeedChange, FeedPage } from "./change-feed-syncer.ts";
import type { RouteKit } from "./route-test-kit.ts";

/*
 * A machine client that keeps a copy of every player's transactions (a ledger copy), as docs/integrations.md and
 * docs/change-feed.md tell it to: note the feed's tail and name, copy everything through the bulk read
 * (`GET /transactions`, following `Link: rel="next"`), then follow the feed from that tail with `include=record`,
 * taking each transaction from the page that names it. A `reset` or a 410 (another feed, a pruned position) starts
 * it again with a full copy; a bulk entry (`player.transactions_changed`) is read again through the bulk read from
 * its `changed_at`. Its copy, compared with a fresh full copy, is the bulk read's and the feed's exactness test.
 */

interface BulkRow {
  id: string;
  player_id: string;
}

export interface LedgerStats {
  /** Requests of the bulk read (pages). */
  bulkPages: number;
  /** Requests of the feed (pages). */
  feedPages: number;
  fullCopies: number;
}

export class LedgerSyncer {
  readonly rows = new Map<string, BulkRow>();
  readonly stats: LedgerStats = { bulkPages: 0, feedPages: 0, fullCopies: 0 };
  position = 0;
  feed = "";

  constructor(
    private readonly kit: RouteKit,
    /** A token with `players:read` (the feed) and `transactions:bulk` (the bulk read). */
    private readonly token: string,
  ) {}

  private async get<T>(path: string): Promise<{ status: number; body: T; link: string | null }> {
    const res = await this.kit.call("GET", path, {
      token: this.token,
      headers: { "x-session-id": "ledger-copy-job" },
    });
    if (res.status !== 200 && res.status !== 410) throw new Error(`${path}: ${res.status} ${res.text}`);
    return { status: res.status, body: res.json as T, link: res.headers.get("link") };
  }

  /** Every transaction from `query` on, through the bulk read, page by page along its `Link` header. */
  private async copy(query: string): Promise<void> {
    let path: string | null = `/api/v1/transactions?${query}`;
    while (path) {
      const page: { body: { transactions: BulkRow[] }; link: string | null } = await this.get(path);
      this.stats.bulkPages += 1;
      for (const row of page.body.transactions) this.rows.set(row.id, row);
      path = page.link ? (/^<([^>]+)>; rel="next"$/.exec(page.link)?.[1] ?? null) : null;
    }
  }

  /** The feed's tail and name first, then everything: a change committed during the copy is followed afterwards. */
  async fullSync(): Promise<void> {
    const head = (await this.get<FeedPage>("/api/v1/changes?limit=1")).body;
    this.position = head.tail;
    this.feed = head.feed;
    this.rows.clear();
    this.stats.fullCopies += 1;
    await this.copy("limit=1000");
  }

  /** Follows the feed to its end with the records its pages carry. */
  async follow(): Promise<void> {
    for (;;) {
      const { status, body } = await this.get<FeedPage>(
        `/api/v1/changes?after=${this.position}&feed=${this.feed}&limit=1000&include=record`,
      );
      this.stats.feedPages += 1;
      if (status === 410 || body.changes.some((c) => c.kind === "reset")) {
        await this.fullSync(); // then on from its tail, at or after this page's end
        continue;
      }
      const since = this.apply(body.changes);
      if (since !== null) await this.copy(`limit=1000&updated_since=${encodeURIComponent(since)}`);
      this.position = body.next;
      if (!body.has_more) return;
    }
  }

  /** One page's entries; returns the earliest `changed_at` of its bulk entries (to read again), or null. */
  private apply(changes: readonly FeedChange[]): string | null {
    let since: string | null = null;
    for (const c of changes) {
      if (c.kind === "player.deleted" && c.record === null) {
        for (const [id, row] of this.rows) if (row.player_id === c.player_id) this.rows.delete(id);
      }
      if (c.kind.startsWith("transaction.") && c.transaction_id && c.player_id) {
        if (c.record === null) this.rows.delete(c.transaction_id);
        else this.rows.set(c.transaction_id, { ...(c.record as BulkRow), player_id: c.player_id });
      }
      if (c.kind === "player.transactions_changed" && (since === null || c.changed_at < since))
        since = c.changed_at;
    }
    return since;
  }
}
