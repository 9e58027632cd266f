import "server-only";
import { getPrisma } from "@/lib/db/client";
import type { Prisma, PrismaClient } from "@/lib/db/generated/client";
import type { PlayerSummary } from "@/lib/schemas/player";
import { PLAYER_SUMMARY_SELECT, toPlayerSummary } from "./map-player.ts";

export interface SearchPlayersOptions {
  /** Matched against id, name and (unless `matchEmail` is false) e-mail; every player without it. */
  q?: string | undefined;
  limit: number;
  offset: number;
  /** Default true. */
  matchEmail?: boolean | undefined;
  vipManager?: string | undefined;
}

/**
 * Players whose id, name or email contains q (case-insensitive), ordered by id; all players without q.
 * `matchEmail: false` leaves e-mail out of the match, for callers who may not see e-mail addresses (else
 * a search would reveal them one character at a time). `vipManager` keeps only that manager's players.
 */
export async function searchPlayers(
  options: SearchPlayersOptions,
  db: PrismaClient = getPrisma(),
): Promise<{ players: PlayerSummary[]; total: number }> {
  // Prisma passes `contains` to LIKE as is: escape LIKE's wildcards so "_" means an underscore.
  const term = options.q?.replace(/[\\%_]/g, "\\$&");
  const match: Prisma.PlayerWhereInput = term
    ? {
        OR: [
          { id: { contains: term, mode: "insensitive" } },
          { name: { contains: term, mode: "insensitive" } },
          ...(options.matchEmail === false
            ? []
            : [{ email: { contains: term, mode: "insensitive" as const } }]),
        ],
      }
    : {};
  const where: Prisma.PlayerWhereInput =
    options.vipManager === undefined ? match : { AND: [match, { vipManager: options.vipManager }] };
  const [rows, total] = await Promise.all([
    db.player.findMany({
      where,
      select: PLAYER_SUMMARY_SELECT,
      orderBy: { id: "asc" },
      skip: options.offset,
      take: options.limit,
    }),
    db.player.count({ where }),
  ]);
  return { players: rows.map(toPlayerSummary), total };
}
