"use client";

import { type ColumnDef, metaHelper, tableFeatures, useTable } from "@tanstack/react-table";
import type { PortfolioSort } from "@/features/portfolio/client/portfolio-view";
import type { PortfolioPlayerData } from "@/features/portfolio/client/queries";

/** How a portfolio column lays out its cells and which order its heading sets: the view keeps no lists of its own. */
export interface PortfolioColumnMeta {
  align: "start" | "end";
  /** The sort its heading sets (features/portfolio/client/portfolio-view.ts). */
  sort: PortfolioSort;
  /** What a heading's sort button says it does, for screen readers. */
  sortLabel: string;
}

// TanStack Table 9's type-only slot: `meta` is typed for this table's columns alone (no global augmentation).
export const portfolioFeatures = tableFeatures({ columnMeta: metaHelper<PortfolioColumnMeta>() });

// biome-ignore lint/suspicious/noExplicitAny: a column's value type varies by column, as in TanStack's own helper.
export type PortfolioColumns = ColumnDef<typeof portfolioFeatures, PortfolioPlayerData, any>[];

const emptyRows: PortfolioPlayerData[] = [];

/** The rows come sorted and filtered (usePortfolioView, exact decimal order): the table renders them. */
export function usePortfolioTable(rows: PortfolioPlayerData[] | undefined, columns: PortfolioColumns) {
  return useTable({
    features: portfolioFeatures,
    columns,
    data: rows ?? emptyRows,
    getRowId: (row) => row.id,
  });
}

export type PortfolioTable = ReturnType<typeof usePortfolioTable>;
