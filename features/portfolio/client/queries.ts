import { queryOptions } from "@tanstack/react-query";
import type { Portfolio, PortfolioManagers } from "@/features/portfolio/schema/portfolio";
import { apiGet } from "../../../platform/client/api-client.ts";
import type { Wire } from "../../../platform/client/wire.ts";
import { WIRE_DECIMALS } from "../../../platform/client/wire-decimals.ts";

export type PortfolioData = Wire<Portfolio>;
export type PortfolioPlayerData = PortfolioData["players"][number];
export type PortfolioManagersData = Wire<PortfolioManagers>;

/** The portfolio's API path and query, shared with the server that prefetches it. */
export const portfolioPath = "/portfolio";
export const portfolioQuery = (manager: string) => new URLSearchParams({ manager });

/** The portfolio reads the page makes: the key says exactly which request it is. */
export const portfolioQueries = {
  /** A VIP manager's book (GET /portfolio); sorting and the flag filter work on it in the browser. */
  portfolio: (manager: string) =>
    queryOptions({
      queryKey: ["portfolio", manager],
      queryFn: ({ signal }) =>
        apiGet<PortfolioData>(portfolioPath, WIRE_DECIMALS.portfolio, portfolioQuery(manager), signal),
      enabled: manager.length > 0,
      staleTime: 60_000,
    }),
  /** The managers an admin can choose from. */
  portfolioManagers: () =>
    queryOptions({
      queryKey: ["portfolio", "managers"],
      queryFn: ({ signal }) =>
        apiGet<PortfolioManagersData>(
          `${portfolioPath}/managers`,
          WIRE_DECIMALS.portfolioManagers,
          undefined,
          signal,
        ),
      staleTime: 5 * 60_000,
    }),
};
