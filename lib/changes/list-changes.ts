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
  /** The newest committed position when the page was read (0 for an empty feed). */
  tail: number;
}

interface ChangeRow {
  position: bigint;
  kind: string;
  player_id: string | null;
  transaction_id: string | null;
  status: string | null;
  version: number | null;
  changed_at: Date;
  tail: bigint | null;
}

/**
 * One page of the change feed after `after`, in position (= commit) order, and the feed's tail, in one statement
 * (one snapshot). Positions are given at COMMIT under a lock (prisma/migrations/20261126070000_change_feed), so
 * every change that is not yet visible will get a position above every visible one: following `next` never
 * skips a change. Entries of transactions still running (position NULL) are invisible to anyone else.
 */
export async function listChanges(
  options: ListChangesOptions,
  db: PrismaClient = getPrisma(),
): Promise<ChangePage> {
  const { after, limit } = options;
  const rows = await db.$queryRaw<ChangeRow[]>(Prisma.sql`
    SELECT c.position, c.kind, c.player_id, c.transaction_id, c.status::text AS status, c.version, c.changed_at,
           t.tail
    FROM (SELECT max(position) AS tail FROM changes) t
    LEFT JOIN LATERAL (
      SELECT * FROM changes WHERE position > ${BigInt(after)} ORDER BY position LIMIT ${limit + 1}
    ) c ON true
    ORDER BY c.position`);
  const tail = Number(rows[0]?.tail ?? 0);
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
  return { changes, next: changes.at(-1)?.position ?? after, hasMore, tail };
}
