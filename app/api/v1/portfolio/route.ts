import { portfolioAccess } from "@/lib/auth/portfolio-access";
import { readRoute } from "@/lib/http/api-handler";
import { forbidden, invalidParameters } from "@/lib/http/problem";
import { parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { getPortfolio } from "@/lib/players/get-portfolio";
import { portfolioAsOf, portfolioRulesFromEnv } from "@/lib/players/portfolio-rules";
import { portfolioQuerySchema } from "@/lib/schemas/portfolio";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(async function portfolioRoute({
  url,
  principal,
  audit,
}) {
  const query = parseQuery(portfolioQuerySchema, url.searchParams);
  const access = portfolioAccess(principal, query.manager);
  if (!access.allowed) {
    const error = [{ name: "manager", in: "query" as const, detail: access.detail }];
    throw access.status === 400
      ? invalidParameters(error)
      : forbidden(`Parameter 'manager' ${access.detail}.`, error);
  }
  const portfolio = await getPortfolio({
    manager: access.manager,
    asOf: portfolioAsOf(),
    rules: portfolioRulesFromEnv(),
  });
  audit({ operation: "portfolio", playerId: null, resultPlayerIds: portfolio.players.map((p) => p.id) });
  return jsonResponse(portfolio);
});
