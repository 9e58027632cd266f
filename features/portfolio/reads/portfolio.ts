import { getPortfolio } from "@/features/portfolio/data/get-portfolio";
import { PortfolioBookCache } from "@/features/portfolio/data/portfolio-book-cache";
import { portfolioAsOf, portfolioRulesFromEnv } from "@/features/portfolio/data/portfolio-rules";
import { portfolioQuerySchema } from "@/features/portfolio/schema/portfolio";
import { portfolioAccess } from "@/platform/auth/portfolio-access";
import { vipManagerSubjects } from "@/platform/auth/vip-managers";
import { getEnv } from "@/platform/env/env";
import { forbidden, invalidParameters } from "@/platform/problems/problem";
import { defineRead } from "../../../platform/reads/read-definition.ts";

let keptBooks: PortfolioBookCache | undefined;

/** The process's kept books (PORTFOLIO_KEPT_BOOKS; none when 0). */
function portfolioBookCache(): PortfolioBookCache | undefined {
  const capacity = getEnv().PORTFOLIO_KEPT_BOOKS;
  if (capacity < 1) return undefined;
  keptBooks ??= new PortfolioBookCache(capacity);
  return keptBooks;
}

/**
 * GET /portfolio: a VIP manager's book (their own; an admin names any), with each player's figures and flags.
 * Who may read which book is platform/auth/portfolio-access.ts; a refusal names `manager`.
 */
export const portfolioRead = defineRead({
  params: {},
  query: portfolioQuerySchema,
  run: async function portfolioRead({ query, principal, db }) {
    const access = portfolioAccess(principal, query.manager, vipManagerSubjects());
    if (!access.allowed) {
      const error = [{ name: "manager", in: "query" as const, detail: access.detail }];
      throw access.status === 400
        ? invalidParameters(error)
        : forbidden(`Parameter 'manager' ${access.detail}.`, error);
    }
    const options = {
      manager: access.manager,
      asOf: portfolioAsOf(),
      rules: portfolioRulesFromEnv(),
      parts: getEnv().PORTFOLIO_BOOK_PARTS,
      cache: portfolioBookCache(),
    };
    const { body, playerIds } = await getPortfolio(options, db);
    return { body, audit: { operation: "portfolio", playerId: null, resultPlayerIds: playerIds } };
  },
});
