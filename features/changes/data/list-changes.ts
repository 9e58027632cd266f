import "server-only";
import { type Change, type ChangeKind, FILTERED_CHANGES_SCAN } from "@/features/changes/schema/change";
import type { TransactionStatus } from "@/features/transactions";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";

export interface ListChangesOptions {
  /** List the changes after this position (0: from the start). */
  after: number;
  limit: number;
  /** Only these kinds (all when absent); `reset` entries are always kept. */
  kinds?: readonly ChangeKind[];
  /** Only this player's changes (all when absent); `reset` entries, which name no player, are always kept. */
  playerId?: string;
}

export interface ChangePage {
  changes: Change[];
  /**
   * The position to continue after: the last listed, or (filtered) the last examined, so a filtered client never
   * examines the skipped entries again; `after` when nothing was examined.
   */
  next: number;
  hasMore: boolean;
  /**
   * The newest committed position when the page was read (0 for an empty feed; the pruning horizon when every
   * entry was deleted).
   */
  tail: number;
  /** This database's feed (change_feed_id()): a position means something only in it. */
  feed: string;
  /** The highest position ever deleted from the log (0: none): a client positioned below it missed entries. */
  prunedThrough: number;
}

interface ChangeRow {
  position: bigint;
  kind: string;
  player_id: string | null;
  transaction_id: string | null;
  status: string | null;
  version: number | null;
  changed_at: Date;
  last_examined: bigint | null;
  newest: bigint | null;
  tail: bigint;
  feed: string;
  pruned_through: bigint;
}

/**
 * One page of the change feed after `after`, in position (= commit) order, and the feed's tail, in one statement
 * (one snapshot). Positions are given at COMMIT under a lock (prisma/migrations/20261126070000_change_feed), so
 * every change that is not yet visible will get a position above every visible one: following `next` never
 * skips a change. Entries of transactions still running (position NULL) are invisible to anyone else. The feed's
 * identity and pruning horizon come from the same statement (prisma/migrations/20261126174000_change_feed_identity):
 * read per request, they are the answering server's even when a pool's server changes under the process.
 */
export async function listChanges(
  options: ListChangesOptions,
  db: PrismaClient = getPrisma(),
): Promise<ChangePage> {
  const { after, limit, kinds, playerId } = options;
  const filtered = kinds !== undefined || playerId !== undefined;
  // Unfiltered, the window is the page (and one more, for has_more); filtered, a bounded run of the log, so a
  // rare filter (one player's entries in a busy log) stops there instead of scanning the whole log at once.
  const window = filtered ? FILTERED_CHANGES_SCAN : limit + 1;
  const conditions = [
    ...(kinds === undefined ? [] : [Prisma.sql`w.kind = ANY(${[...kinds]}::text[])`]),
    ...(playerId === undefined ? [] : [Prisma.sql`w.player_id = ${playerId}`]),
  ];
  // A `reset` (everything was reloaded) concerns every player and every kind: no filter leaves it out, or a
  // client following one player or a few kinds would keep a copy that no longer exists.
  const where =
    conditions.length > 0
      ? Prisma.sql`WHERE (${Prisma.join(conditions, " AND ")}) OR w.kind = 'reset'`
      : Prisma.empty;
  const rows = await db.$queryRaw<ChangeRow[]>(Prisma.sql`
    WITH w AS MATERIALIZED (
      SELECT * FROM changes WHERE position > ${BigInt(after)} ORDER BY position LIMIT ${window}
    )
    SELECT c.position, c.kind, c.player_id, c.transaction_id, c.status::text AS status, c.version, c.changed_at,
           s.last_examined, t.tail AS newest, greatest(t.tail, f.pruned_through) AS tail, f.feed, f.pruned_through
    FROM (SELECT max(position) AS tail FROM changes) t
    CROSS JOIN (SELECT change_feed_id() AS feed, pruned_through FROM change_feed) f
    CROSS JOIN (SELECT max(position) AS last_examined FROM w) s
    LEFT JOIN LATERAL (
      SELECT w.* FROM w ${where} ORDER BY w.position LIMIT ${limit + 1}
    ) c ON true
    ORDER BY c.position`);
  const head = rows[0];
  // A migrated database always has its one change_feed row.
  if (!head) throw new Error("The change feed's identity row (table change_feed) is missing");
  const tail = Number(head.tail);
  const listed = rows.filter((r) => r.position !== null);
  const changes = listed.slice(0, limit).map(
    (r): Change => ({
      position: Number(r.position),
      kind: r.kind as ChangeKind,
      player_id: r.player_id,
      transaction_id: r.transaction_id,
      status: r.status as TransactionStatus | null,
      version: r.version,
      changed_at: r.changed_at.toISOString(),
    }),
  );
  // A full page stops at its last entry; otherwise every entry of the window was examined (listed or skipped).
  const examined = head.last_examined === null ? after : Number(head.last_examined);
  const next = listed.length > limit ? (changes.at(-1)?.position ?? after) : examined;
  return {
    changes,
    next,
    // Entries after `next` exist in this snapshot (the newest position, not the horizon: a fully pruned log has none).
    hasMore: head.newest !== null && next < Number(head.newest),
    tail,
    feed: head.feed,
    prunedThrough: Number(head.pruned_through),
  };
}
