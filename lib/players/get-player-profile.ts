import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { PlayerProfile } from "@/lib/schemas/player";
import { toPlayerProfile } from "./map-player.ts";

/** The player's full profile, or null when no such player exists. */
export async function getPlayerProfile(
  playerId: string,
  db: PrismaClient = getPrisma(),
): Promise<PlayerProfile | null> {
  const player = await db.player.findUnique({ where: { id: playerId } });
  return player ? toPlayerProfile(player) : null;
}
