import { type DehydratedState, dehydrate } from "@tanstack/react-query";
import { GET as portfolioRoute } from "@/app/api/v1/portfolio/route";
import { apiUrl } from "@/lib/client/api-client";
import { portfolioPath, portfolioQuery, queries } from "@/lib/client/queries";
import { makeQueryClient } from "@/lib/client/query-client";
import type { PortfolioData } from "@/lib/client/wire";
import { apiAsUser, type PageUser } from "@/lib/server/in-process-api";

/**
 * The portfolio's first view, read on the server through the API's own route as the signed-in user (audited the
 * same way) and handed to the browser's query cache under the key its components use. A refused or failed read
 * is left out: the browser asks again and shows the error.
 */
export async function prefetchPortfolio(
  manager: string,
  user: PageUser,
  pageHeaders: Headers,
): Promise<DehydratedState> {
  const queryClient = makeQueryClient();
  const read = await apiAsUser(user, pageHeaders);
  const answer = await read<PortfolioData, Record<string, string>>({
    handler: portfolioRoute,
    params: {},
    path: apiUrl(portfolioPath, portfolioQuery(manager)),
  });
  if (answer.ok) queryClient.setQueryData(queries.portfolio(manager).queryKey, answer.data);
  return dehydrate(queryClient);
}
