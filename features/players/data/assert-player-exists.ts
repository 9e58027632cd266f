import "server-only";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";

export interface AssertPlayerExistsOptions {
  playerId: string;
}

/** Throws a not-found AppError when no such player exists (a primary-key lookup, nothing read). */
export async function assertPlayerExists(
  options: AssertPlayerExistsOptions,
  db: PrismaClient = getPrisma(),
): Promise<void> {
  const player = await db.player.findUnique({ where: { id: options.playerId }, select: { id: true } });
  if (!player) throw playerNotFound(options.playerId);
}
