import { type DehydratedState, dehydrate } from "@tanstack/react-query";
import { type PortfolioData, portfolioQueries, portfolioQuery } from "@/features/portfolio/client/queries";
import { portfolioRead } from "@/features/portfolio/reads/portfolio";
import { makeQueryClient } from "@/platform/client/query-client";
import { WIRE_DECIMALS } from "@/platform/client/wire-decimals";
import { createServerCaller, type ServerCallerOptions } from "@/platform/reads/server-caller";

/**
 * The portfolio's first view, read on the server as the signed-in user (platform/reads/server-caller.ts: the API's
 * own read definition, access rule and audit row) and handed to the browser's query cache under the key its
 * components use. A refused or failed read is left out: the browser asks again and shows the error.
 */
export async function prefetchPortfolio(
  manager: string,
  user: ServerCallerOptions,
): Promise<DehydratedState> {
  const queryClient = makeQueryClient();
  // An ended session is the page's to answer (sign in again); the first view is then simply left out.
  const caller = await createServerCaller(user).catch(() => null);
  if (!caller) return dehydrate(queryClient);
  await queryClient.prefetchQuery({
    queryKey: portfolioQueries.portfolio(manager).queryKey,
    queryFn: () =>
      caller.read<PortfolioData>(
        portfolioRead,
        { params: {}, query: portfolioQuery(manager) },
        WIRE_DECIMALS.portfolio,
      ),
  });
  return dehydrate(queryClient);
}
