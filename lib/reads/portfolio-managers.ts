import { listPortfolioManagers } from "@/lib/players/list-portfolio-managers";
import { forbidden } from "@/lib/problems/problem";
import { portfolioManagersQuerySchema } from "@/lib/schemas/portfolio";
import { defineRead } from "./read-definition.ts";

/** GET /portfolio/managers: the admin's choice of book. Names of staff, not player data: not an audited read. */
export const portfolioManagersRead = defineRead({
  params: {},
  query: portfolioManagersQuerySchema,
  run: async function portfolioManagersRead({ principal, db }) {
    if (!principal.roles.includes("admin")) {
      throw forbidden("Only admins choose among the managers' books; a VIP manager reads their own.");
    }
    return { body: await listPortfolioManagers({}, db), audit: null };
  },
});
