"use client";

import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useId } from "react";
import { type Direction, daysAgo, type PortfolioSort } from "@/lib/client/portfolio-view";
import type { PortfolioData, PortfolioPlayerData } from "@/lib/client/wire";
import { cn } from "@/lib/cn";
import { formatMoney } from "@/lib/format/money";
import type { PortfolioColumnMeta, PortfolioTable } from "@/lib/hooks/use-portfolio-table";
import type { PortfolioFlag } from "@/lib/schemas/enums";
import { FigureCell, FlagList, PendingCell, PlayerCell } from "./portfolio-columns.tsx";

function SortButton({
  meta,
  sort,
  dir,
  onSort,
  children,
}: {
  meta: PortfolioColumnMeta;
  sort: PortfolioSort;
  dir: Direction;
  onSort: (sort: PortfolioSort) => void;
  children: React.ReactNode;
}) {
  const active = sort === meta.sort;
  const Icon = !active ? ArrowUpDown : dir === "desc" ? ArrowDown : ArrowUp;
  return (
    <button
      type="button"
      onClick={() => onSort(meta.sort)}
      aria-label={meta.sortLabel}
      className="inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {children}
      <Icon aria-hidden="true" className={cn("size-3.5", active ? "text-indigo-700" : "text-slate-400")} />
    </button>
  );
}

const ariaSort = (meta: PortfolioColumnMeta | undefined, sort: PortfolioSort, dir: Direction) =>
  meta?.sort !== sort ? "none" : dir === "desc" ? "descending" : "ascending";

/** From 768 px: the table, headings as sort buttons. */
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
    // A focusable, labelled scroll region: if the table is wider than the screen, the keyboard can scroll it.
    <section
      aria-labelledby={captionId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be reachable by keyboard
      tabIndex={0}
      className="hidden overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600 md:block"
    >
      <table className="w-full min-w-[1000px] border-collapse text-left text-sm">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <PortfolioHead table={table} sort={sort} dir={dir} onSort={onSort} />
        <PortfolioBody table={table} />
      </table>
    </section>
  );
}

/** The headings: each sortable column's is a button that sorts by it (aria-sort says the current order). */
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
    <thead className="bg-slate-50">
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id} className="border-b border-slate-200">
          {group.headers.map((header) => {
            const meta = header.column.columnDef.meta;
            return (
              <th
                key={header.id}
                scope="col"
                aria-sort={ariaSort(meta, sort, dir)}
                className={cn(
                  "whitespace-nowrap px-2 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-600",
                  meta?.align === "end" && "text-right",
                )}
              >
                {meta ? (
                  <SortButton meta={meta} sort={sort} dir={dir} onSort={onSort}>
                    <table.FlexRender header={header} />
                  </SortButton>
                ) : (
                  <table.FlexRender header={header} />
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
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

/** Under 768 px: one card per player, every figure labelled, each flag explained in words. */
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
    <ul className="divide-y divide-slate-100 md:hidden" aria-label="Players">
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
