import { floorPrisma } from "../../../../../../lib/prisma.ts";

export const dynamic = "force-dynamic";

/**
 * The product's unfiltered first page, the same three reads in parallel (features/transactions/data/list-player-transactions.ts):
 * the player by primary key, limit + 1 rows newest first (date DESC, id DESC), the total from the daily stats.
 */
export async function GET(
  request: Request,
  ctx: { params: Promise<{ playerId: string }> },
): Promise<Response> {
  const { playerId } = await ctx.params;
  const limit = Number(new URL(request.url).searchParams.get("limit") ?? 20);
  const db = floorPrisma();
  const [player, rows, stats] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    db.transaction.findMany({
      where: { playerId },
      orderBy: [{ date: "desc" }, { id: "desc" }],
      take: limit + 1,
    }),
    db.transactionDailyStat.aggregate({ where: { playerId }, _sum: { n: true } }),
  ]);
  if (!player) return Response.json({ title: "Not Found" }, { status: 404 });
  return Response.json({
    transactions: rows.slice(0, limit),
    total: stats._sum.n ?? 0,
    has_more: rows.length > limit,
  });
}
