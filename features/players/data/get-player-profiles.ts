import "server-only";
import type { PlayerProfile } from "@/features/players/schema/player";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { toPlayerProfile } from "./map-player.ts";

export interface GetPlayerProfilesOptions {
  /** Distinct player ids, in the order the answer lists them. */
  playerIds: readonly string[];
}

export interface PlayerProfiles {
  /** The profiles found, in the order of `playerIds`. */
  players: PlayerProfile[];
  /** The ids with no player, in the order of `playerIds`. */
  missing: string[];
}

/** Several players' full profiles in one query (a batch read); unknown ids are listed, never thrown. */
export async function getPlayerProfiles(
  options: GetPlayerProfilesOptions,
  db: PrismaClient = getPrisma(),
): Promise<PlayerProfiles> {
  const { playerIds } = options;
  const rows = await db.player.findMany({ where: { id: { in: [...playerIds] } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const players: PlayerProfile[] = [];
  const missing: string[] = [];
  for (const id of playerIds) {
    const row = byId.get(id);
    if (row) players.push(toPlayerProfile(row));
    else missing.push(id);
  }
  return { players, missing };
}
