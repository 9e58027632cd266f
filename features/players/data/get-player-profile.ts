import "server-only";
import type { PlayerProfile } from "@/features/players/schema/player";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
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
