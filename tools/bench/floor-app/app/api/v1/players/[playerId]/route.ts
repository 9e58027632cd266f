import { floorPrisma } from "../../../../../lib/prisma.ts";

export const dynamic = "force-dynamic";

/** The product's profile read: one player by primary key, the row as JSON. */
export async function GET(
  _request: Request,
  ctx: { params: Promise<{ playerId: string }> },
): Promise<Response> {
  const { playerId } = await ctx.params;
  const player = await floorPrisma().player.findUnique({ where: { id: playerId } });
  return player ? Response.json(player) : Response.json({ title: "Not Found" }, { status: 404 });
}
