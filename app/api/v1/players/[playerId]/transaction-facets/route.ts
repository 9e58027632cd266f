import { z } from "zod";
import { jsonResponse, methodNotAllowedHandler, withApi } from "@/lib/http/api-handler";
import { notFound } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { getPlayerTransactionFacets } from "@/lib/players/get-player-transaction-facets";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const GET = withApi<{ playerId: string }>(async ({ params, url, audit }) => {
  const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
  parseQuery(z.strictObject({}), url.searchParams);
  const facets = await getPlayerTransactionFacets(playerId);
  if (!facets) throw notFound(`No player with id '${playerId}'.`);
  audit({ operation: "transaction_facets", playerId });
  return jsonResponse(facets);
});

export const POST = methodNotAllowedHandler();
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
