import { listPortfolioManagers } from "@/features/portfolio/data/list-portfolio-managers";
import { portfolioManagersQuerySchema } from "@/features/portfolio/schema/portfolio";
import { forbidden } from "@/platform/problems/problem";
import { defineRead } from "../../../platform/reads/read-definition.ts";

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
