import "server-only";
import type { PortfolioManagers } from "@/features/portfolio/schema/portfolio";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";

// biome-ignore lint/complexity/noBannedTypes: no options yet; the one signature of data functions keeps the slot.
export type ListPortfolioManagersOptions = {};

/** Every `vip_manager` value on a profile with the number of its players, by name (players_vip_manager_id_idx). */
export async function listPortfolioManagers(
  _options: ListPortfolioManagersOptions = {},
  db: PrismaClient = getPrisma(),
): Promise<PortfolioManagers> {
  const rows = await db.player.groupBy({
    by: ["vipManager"],
    where: { vipManager: { not: null } },
    _count: { _all: true },
    orderBy: { vipManager: "asc" },
  });
  return {
    managers: rows.flatMap((r) =>
      r.vipManager === null ? [] : [{ name: r.vipManager, players: r._count._all }],
    ),
  };
}
