import "server-only";
import type { Change, ChangeRecord } from "@/features/changes/schema/change";
import type { PlayerProfile } from "@/features/players";
import { getPlayerProfiles } from "@/features/players/server";
import { toTransaction } from "@/features/transactions";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";

export interface ChangeRecordsOptions {
  changes: readonly Change[];
  /** The profile as the caller may see it (masked without players:pii): the profile read's own masking. */
  showProfile: (profile: PlayerProfile) => PlayerProfile;
}

/** Which record an entry carries: a player's profile, a transaction, or none (bulk entries and `reset`). */
export function recordOf(change: Pick<Change, "kind">): "profile" | "transaction" | undefined {
  switch (change.kind) {
    case "player.created":
    case "player.updated":
    case "player.deleted":
      return "profile";
    case "transaction.created":
    case "transaction.updated":
    case "transaction.deleted":
      return "transaction";
    default:
      return undefined;
  }
}

/**
 * A page's entries with each one's record as it is now (`include=record`): the profile (as GET /players/{id}
 * answers it) or the transaction (as a row of the transaction list), null when it no longer exists. Two queries
 * per page at most, one per kind of record, whatever the page's size. Read after the page: a record may be newer
 * than its entry (a later entry then names it again), never older.
 */
export async function withRecords(
  options: ChangeRecordsOptions,
  db: PrismaClient = getPrisma(),
): Promise<Change[]> {
  const { changes, showProfile } = options;
  const playerIds = new Set<string>();
  const transactionIds = new Set<string>();
  for (const c of changes) {
    const kind = recordOf(c);
    if (kind === "profile" && c.player_id !== null) playerIds.add(c.player_id);
    if (kind === "transaction" && c.transaction_id !== null) transactionIds.add(c.transaction_id);
  }
  const [profiles, transactions] = await Promise.all([
    playerIds.size > 0 ? getPlayerProfiles({ playerIds: [...playerIds] }, db) : undefined,
    transactionIds.size > 0 ? db.transaction.findMany({ where: { id: { in: [...transactionIds] } } }) : [],
  ]);
  const profileOf = new Map((profiles?.players ?? []).map((p) => [p.id, showProfile(p)]));
  const transactionOf = new Map(
    transactions.map((t) => [t.id, { playerId: t.playerId, row: toTransaction(t) }]),
  );
  return changes.map((c): Change => {
    const kind = recordOf(c);
    if (kind === undefined) return c;
    let record: ChangeRecord = null;
    if (kind === "profile" && c.player_id !== null) record = profileOf.get(c.player_id) ?? null;
    if (kind === "transaction" && c.transaction_id !== null) {
      const found = transactionOf.get(c.transaction_id);
      // A transaction id names one player's transaction; another player's row under it is not this entry's.
      record = found && found.playerId === c.player_id ? found.row : null;
    }
    return { ...c, record };
  });
}
