import "server-only";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { profileExportWhere } from "./stream-player-profiles.ts";

export interface CountPlayerProfilesOptions {
  /** Only this VIP manager's players (`vip_manager`, exact). */
  manager?: string | undefined;
}

/** How many players the profiles export holds (its filters, not `after`). */
export async function countPlayerProfiles(
  options: CountPlayerProfilesOptions,
  db: PrismaClient = getPrisma(),
): Promise<number> {
  return db.player.count({ where: profileExportWhere(options.manager) });
}
