import "server-only";
import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { playerNotFound } from "@/lib/errors";
import type { PlayerProfile } from "@/lib/schemas/player";
import { toPlayerProfile } from "./map-player.ts";

export interface GetPlayerProfileOptions {
  playerId: string;
}

/** The player's full profile; throws a not-found AppError when no such player exists. */
export async function getPlayerProfile(
  options: GetPlayerProfileOptions,
  db: PrismaClient = getPrisma(),
): Promise<PlayerProfile> {
  const { playerId } = options;
  const player = await db.player.findUnique({ where: { id: playerId } });
  if (!player) throw playerNotFound(playerId);
  return toPlayerProfile(player);
}
