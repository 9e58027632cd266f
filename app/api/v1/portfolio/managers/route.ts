import { readRoute } from "@/lib/http/api-handler";
import { parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { listPortfolioManagers } from "@/lib/players/list-portfolio-managers";
import { forbidden } from "@/lib/problems/problem";
import { portfolioManagersQuerySchema } from "@/lib/schemas/portfolio";

export const dynamic = "force-dynamic";

/** The admin's choice of book. Names of staff, not player data: not an audited read. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(async function portfolioManagersRoute({
  url,
  principal,
}) {
  parseQuery(portfolioManagersQuerySchema, url.searchParams);
  if (!principal.roles.includes("admin")) {
    throw forbidden("Only admins choose among the managers' books; a VIP manager reads their own.");
  }
  return jsonResponse(await listPortfolioManagers());
});
