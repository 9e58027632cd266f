"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useCallback, useMemo } from "react";
import {
  filterPortfolio,
  flagCounts,
  nextSort,
  type PortfolioSort,
  portfolioSearchParams,
  sortPortfolio,
} from "@/features/portfolio/client/portfolio-view";
import { portfolioQueries } from "@/features/portfolio/client/queries";
import type { PortfolioFlag } from "@/platform/schemas/enums";

/**
 * A manager's portfolio: the book is read once (GET /portfolio); order and flag filter are applied here, from the
 * URL (shareable, restored on reload; each change is a history entry, so Back undoes it). `ownManager` is the
 * signed-in VIP manager's own name; an admin's book comes from the URL's `manager`.
 */
export function usePortfolioView(ownManager: string | null) {
  const [state, setState] = useQueryStates(portfolioSearchParams, { history: "push", scroll: false });
  const manager = ownManager ?? state.manager ?? "";
  const book = useQuery(portfolioQueries.portfolio(manager));
  const all = book.data?.players;
  const rows = useMemo(
    () => (all ? sortPortfolio(filterPortfolio(all, state.flag), state.sort, state.dir) : undefined),
    [all, state.flag, state.sort, state.dir],
  );
  const counts = useMemo(() => (all ? flagCounts(all) : null), [all]);
  // Stable: the table's columns are built with setFlag (a flag badge filters by its flag).
  const setFlag = useCallback((flag: PortfolioFlag | null) => setState({ flag }), [setState]);
  return {
    manager,
    book,
    rows,
    counts,
    sort: state.sort,
    dir: state.dir,
    flag: state.flag,
    sortBy: (column: PortfolioSort) => setState(nextSort({ sort: state.sort, dir: state.dir }, column)),
    setSort: (sort: PortfolioSort, dir: "asc" | "desc") => setState({ sort, dir }),
    setFlag,
    setManager: (name: string | null) => setState({ manager: name || null, flag: null }),
  };
}

export type PortfolioView = ReturnType<typeof usePortfolioView>;
