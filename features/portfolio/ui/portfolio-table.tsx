"use client";

import { useId } from "react";
import { type Direction, daysAgo, type PortfolioSort } from "@/features/portfolio/client/portfolio-view";
import type { PortfolioData, PortfolioPlayerData } from "@/features/portfolio/client/queries";
import type { PortfolioTable } from "@/features/portfolio/client/use-portfolio-table";
import { formatMoney } from "@/platform/format/money";
import type { PortfolioFlag } from "@/platform/schemas/enums";
import { cn } from "@/platform/ui/cn";
import { ScrollRegion } from "../../../platform/ui/scroll-region.tsx";
import { ColumnHeading, TableHead } from "../../../platform/ui/table-head.tsx";
import { FigureCell, FlagList, PendingCell, PlayerCell } from "./portfolio-columns.tsx";

/** From 768 px (the caller shows it there): the table, headings as sort buttons. */
export function PortfolioTableView({
  table,
  caption,
  sort,
  dir,
  onSort,
}: {
  table: PortfolioTable;
  caption: string;
  sort: PortfolioSort;
  dir: Direction;
  onSort: (sort: PortfolioSort) => void;
}) {
  const captionId = useId();
  return (
    <ScrollRegion aria-labelledby={captionId}>
      <table className="w-full min-w-[1000px] border-collapse text-left text-sm">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <PortfolioHead table={table} sort={sort} dir={dir} onSort={onSort} />
        <PortfolioBody table={table} />
      </table>
    </ScrollRegion>
  );
}

/** The headings: each column's is a button that sorts by it (aria-sort says the current order). */
function PortfolioHead({
  table,
  sort,
  dir,
  onSort,
}: {
  table: PortfolioTable;
  sort: PortfolioSort;
  dir: Direction;
  onSort: (sort: PortfolioSort) => void;
}) {
  return (
    <TableHead groups={table.getHeaderGroups()}>
      {(header) => {
        const meta = header.column.columnDef.meta;
        return (
          <ColumnHeading
            key={header.id}
            // Two-word headings may wrap: the width goes to the flags instead, and all ten columns fit at 1440 px.
            className={cn("whitespace-normal px-2", meta?.align === "end" && "text-right")}
            sort={
              meta && {
                direction: meta.sort === sort ? dir : null,
                onSort: () => onSort(meta.sort),
                label: meta.sortLabel,
              }
            }
          >
            <table.FlexRender header={header} />
          </ColumnHeading>
        );
      }}
    </TableHead>
  );
}

/** One row per player of the current order and filter. */
function PortfolioBody({ table }: { table: PortfolioTable }) {
  return (
    <tbody>
      {table.getRowModel().rows.map((row) => (
        <tr
          key={row.id}
          className="border-b border-slate-100 hover:bg-slate-50"
          data-testid="portfolio-row"
          data-player-id={row.id}
        >
          {row.getAllCells().map((cell) => (
            <td
              key={cell.id}
              data-column={cell.column.id}
              className={cn(
                "px-2 py-2.5 align-top text-slate-800",
                cell.column.columnDef.meta?.align === "end" && "text-right",
              )}
            >
              <table.FlexRender cell={cell} />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

/** Under 768 px (the caller shows them there): one card per player, every figure labelled, each flag explained in words. */
export function PortfolioCards({
  rows,
  rules,
  onFlag,
}: {
  rows: PortfolioPlayerData[];
  rules: PortfolioData["flag_rules"];
  onFlag: (flag: PortfolioFlag) => void;
}) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Players">
      {rows.map((p) => (
        <li key={p.id} className="px-4 py-3" data-testid="portfolio-card" data-player-id={p.id}>
          <div className="flex items-start justify-between gap-3">
            <PlayerCell player={p} />
            <span className="shrink-0 text-right">
              <span className="block text-xs text-slate-600">Balance</span>
              <span className="font-medium tabular-nums">{formatMoney(p.total_balance, p.currency)}</span>
            </span>
          </div>
          <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            {(
              [
                ["Deposits (30 d)", p.deposits],
                ["Withdrawals (30 d)", p.withdrawals],
                ["Net deposits (30 d)", p.net_deposits],
                ["GGR (30 d)", p.ggr],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="flex flex-col">
                <dt className="text-xs text-slate-600">{label}</dt>
                <dd className="self-start [&>span]:items-start">
                  <FigureCell value={value} currency={p.currency} />
                </dd>
              </div>
            ))}
            <div className="flex flex-col">
              <dt className="text-xs text-slate-600">Last deposit</dt>
              <dd>{daysAgo(p.days_since_last_deposit)}</dd>
            </div>
            <div className="flex flex-col">
              <dt className="text-xs text-slate-600">Last activity</dt>
              <dd>{daysAgo(p.days_since_last_activity)}</dd>
            </div>
            <div className="col-span-2 flex flex-col">
              <dt className="text-xs text-slate-600">Pending withdrawals</dt>
              <dd className="self-start [&>span]:items-start">
                <PendingCell player={p} />
              </dd>
            </div>
          </dl>
          {p.flags.length ? (
            <div className="mt-2">
              <FlagList player={p} rules={rules} onFlag={onFlag} stacked={false} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
