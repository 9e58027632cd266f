import "server-only";
import { getPrisma } from "@/lib/db/client";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
import type { Change, ChangeKind } from "@/lib/schemas/change";
import type { TransactionStatus } from "@/lib/schemas/transaction";

export interface ListChangesOptions {
  /** List the changes after this position (0: from the start). */
  after: number;
  limit: number;
}

export interface ChangePage {
  changes: Change[];
  /** The last listed position, or `after` when nothing was listed. */
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
  const { after, limit } = options;
  const rows = await db.$queryRaw<ChangeRow[]>(Prisma.sql`
    SELECT c.position, c.kind, c.player_id, c.transaction_id, c.status::text AS status, c.version, c.changed_at,
           greatest(t.tail, f.pruned_through) AS tail, f.feed, f.pruned_through
    FROM (SELECT max(position) AS tail FROM changes) t
    CROSS JOIN (SELECT change_feed_id() AS feed, pruned_through FROM change_feed) f
    LEFT JOIN LATERAL (
      SELECT * FROM changes WHERE position > ${BigInt(after)} ORDER BY position LIMIT ${limit + 1}
    ) c ON true
    ORDER BY c.position`);
  const head = rows[0];
  // A migrated database always has its one change_feed row.
  if (!head) throw new Error("The change feed's identity row (table change_feed) is missing");
  const tail = Number(head.tail);
  const listed = rows.filter((r) => r.position !== null);
  const hasMore = listed.length > limit;
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
  return {
    changes,
    next: changes.at(-1)?.position ?? after,
    hasMore,
    tail,
    feed: head.feed,
    prunedThrough: Number(head.pruned_through),
  };
}
