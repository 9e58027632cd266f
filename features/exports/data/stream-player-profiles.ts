import "server-only";
import type { PlayerProfile } from "@/features/players";
import { toPlayerProfile } from "@/features/players";
import { getPrisma } from "@/platform/db/client";
import type { Prisma, PrismaClient } from "@/platform/db/generated/client";

/** Players per batch: a small first one so the first line leaves at once, then larger ones. */
export const PROFILE_EXPORT_BATCH = { first: 100, rest: 500 } as const;

export interface StreamPlayerProfilesOptions {
  /** Only this VIP manager's players (`vip_manager`, exact). */
  manager?: string | undefined;
  /** Start after this player id (a resumed export); it need not exist. */
  after?: string | undefined;
  /** Players per batch: the first, then every other; default PROFILE_EXPORT_BATCH. */
  batch?: { first: number; rest: number } | undefined;
}

/** The export's filter as a Prisma `where` (shared with countPlayerProfiles, so the count means the same rows). */
export const profileExportWhere = (manager: string | undefined): Prisma.PlayerWhereInput =>
  manager === undefined ? {} : { vipManager: manager };

/**
 * Every player's full profile (the profile read's shape, unmasked: the caller masks), in id order, as batches
 * read by keyset (`id > last`, the primary key or the (vip_manager, id) index), so memory stays constant and a
 * resumed export (`after`) continues exactly after the last player sent. Each batch is its own statement:
 * players created while an export runs may or may not appear, none is repeated or skipped among the others.
 */
export async function* streamPlayerProfiles(
  options: StreamPlayerProfilesOptions,
  db: PrismaClient = getPrisma(),
): AsyncGenerator<PlayerProfile[]> {
  const { manager, batch = PROFILE_EXPORT_BATCH } = options;
  let key = options.after;
  let size = batch.first;
  for (;;) {
    const rows = await db.player.findMany({
      where: { ...profileExportWhere(manager), ...(key === undefined ? {} : { id: { gt: key } }) },
      orderBy: { id: "asc" },
      take: size,
    });
    if (rows.length > 0) yield rows.map(toPlayerProfile);
    const last = rows.at(-1);
    if (!last || rows.length < size) return;
    key = last.id;
    size = batch.rest;
  }
}
