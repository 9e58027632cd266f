"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Users } from "lucide-react";
import { useId, useMemo } from "react";
import {
  FLAG_LABELS,
  flagDescription,
  PORTFOLIO_SORTS,
  type PortfolioSort,
  SORT_LABELS,
} from "@/features/portfolio/client/portfolio-view";
import { type PortfolioData, portfolioQueries } from "@/features/portfolio/client/queries";
import { usePortfolioTable } from "@/features/portfolio/client/use-portfolio-table";
import { usePortfolioView, type PortfolioView as View } from "@/features/portfolio/client/use-portfolio-view";
import { formatDateTime } from "@/platform/format/dates";
import { PORTFOLIO_FLAGS, type PortfolioFlag } from "@/platform/schemas/enums";
import { cn } from "@/platform/ui/cn";
import { Button } from "../../../platform/ui/button.tsx";
import { Card } from "../../../platform/ui/card.tsx";
import { ErrorState } from "../../../platform/ui/error-state.tsx";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";
import { FLAG_ICONS } from "./flag-badge.tsx";
import { portfolioColumns } from "./portfolio-columns.tsx";
import { PortfolioCards, PortfolioTableView } from "./portfolio-table.tsx";
import { ShownLayout } from "./shown-layout.tsx";

// Tailwind's md breakpoint (48rem): the table from there, the cards below it.
const WIDE = "(min-width: 48rem)";
const NARROW = "not all and (min-width: 48rem)";

/**
 * "My players" (a VIP manager's own book, `ownManager`) or any manager's for an admin (`ownManager` null: the
 * manager comes from the URL, chosen in a list). Sorting and the flag filter live in the URL.
 */
export function PortfolioPage({ ownManager }: { ownManager: string | null }) {
  const view = usePortfolioView(ownManager);
  const headingId = useId();
  return (
    <div className="space-y-4" data-wide-page>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 max-w-full">
          {/* A manager's name comes from the URL: however long, it wraps instead of widening the page. */}
          <h1 id={headingId} className="text-xl font-semibold [overflow-wrap:anywhere] text-slate-900">
            {ownManager
              ? "My players"
              : view.manager
                ? `Players of ${view.manager}`
                : "VIP managers' players"}
          </h1>
          <p className="mt-0.5 text-sm text-slate-600" data-testid="portfolio-subtitle">
            {view.book.data
              ? asOfText(view.book.data)
              : "Each player's last 30 days, with what needs attention."}
          </p>
        </div>
        {ownManager ? null : <ManagerPicker view={view} />}
      </div>
      {view.manager ? <Book view={view} /> : <ChooseManager />}
    </div>
  );
}

function asOfText(data: PortfolioData): string {
  const n = data.players.length;
  return `${n === 1 ? "1 player" : `${n} players`} · figures for the 30 days up to ${formatDateTime(data.as_of, "utc")} UTC, each against the 30 days before`;
}

function ManagerPicker({ view }: { view: View }) {
  const managers = useQuery(portfolioQueries.portfolioManagers());
  const id = useId();
  return (
    <div className="flex min-w-0 max-w-full flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Manager
      </label>
      <select
        id={id}
        value={view.manager}
        onChange={(e) => view.setManager(e.target.value)}
        className="h-10 w-72 max-w-full rounded-md border border-slate-300 bg-white px-3 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        aria-describedby={managers.isError ? `${id}-error` : undefined}
      >
        <option value="">Choose a manager…</option>
        {view.manager && !managers.data?.managers.some((m) => m.name === view.manager) ? (
          <option value={view.manager}>{view.manager}</option>
        ) : null}
        {managers.data?.managers.map((m) => (
          <option key={m.name} value={m.name}>
            {m.name} ({m.players})
          </option>
        ))}
      </select>
      {managers.isError ? (
        <p id={`${id}-error`} className="text-xs text-red-700">
          The list of managers could not be loaded.
        </p>
      ) : null}
    </div>
  );
}

function ChooseManager() {
  return (
    <Card className="px-4 py-10 text-center" data-testid="portfolio-choose">
      <Users aria-hidden="true" className="mx-auto size-6 text-slate-500" />
      <p className="mt-2 font-medium text-slate-900">Choose a manager to see their players.</p>
      <p className="mt-1 text-sm text-slate-600">
        Each player's manager is the VIP manager named on their profile.
      </p>
    </Card>
  );
}

function Book({ view }: { view: View }) {
  const { book } = view;
  if (book.isPending) return <BookSkeleton />;
  if (book.isError)
    return (
      <Card>
        <ErrorState query={book} title="Could not load the players" />
      </Card>
    );
  return <LoadedBook view={view} data={book.data} />;
}

function LoadedBook({ view, data }: { view: View; data: PortfolioData }) {
  const rules = data.flag_rules;
  const columns = useMemo(() => portfolioColumns(rules, view.setFlag), [rules, view.setFlag]);
  const table = usePortfolioTable(view.rows, columns);
  const rows = view.rows ?? [];
  const shown = view.flag ? `players with the flag “${FLAG_LABELS[view.flag]}”` : "all players";
  const caption = `${data.manager}'s players: ${shown}, ${rows.length} shown, sorted by ${SORT_LABELS[view.sort].toLowerCase()} ${view.dir === "desc" ? "descending" : "ascending"}.`;
  return (
    <>
      <FlagFilter view={view} rules={rules} total={data.players.length} />
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-2">
          <p className="text-sm text-slate-700" role="status" data-testid="portfolio-count">
            {rows.length === data.players.length
              ? `${rows.length} ${rows.length === 1 ? "player" : "players"}`
              : `${rows.length} of ${data.players.length} players`}
          </p>
          <p className="text-xs text-slate-600">
            Amounts in each player's currency; sorting compares them as numbers, without conversion.
          </p>
          <MobileSort view={view} />
        </div>
        {data.players.length === 0 ? (
          <Empty title={`No player names ${data.manager} as their VIP manager.`} />
        ) : rows.length === 0 ? (
          <Empty
            title={`No player in this book has the flag “${view.flag ? FLAG_LABELS[view.flag] : ""}” today.`}
            action={
              <Button size="sm" onClick={() => view.setFlag(null)}>
                Show all players
              </Button>
            }
          />
        ) : (
          <>
            <ShownLayout query={WIDE} className="hidden md:block">
              <PortfolioTableView
                table={table}
                caption={caption}
                sort={view.sort}
                dir={view.dir}
                onSort={view.sortBy}
              />
            </ShownLayout>
            <ShownLayout query={NARROW} className="md:hidden">
              <PortfolioCards rows={rows} rules={rules} onFlag={view.setFlag} />
            </ShownLayout>
          </>
        )}
      </Card>
    </>
  );
}

function Empty({ title, action }: { title: string; action?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 px-4 py-10 text-center" data-testid="portfolio-empty">
      <p className="font-medium text-slate-900">{title}</p>
      {action}
    </div>
  );
}

/** Show only one flag's players: each choice says what the flag means, on every screen size. */
function FlagFilter({
  view,
  rules,
  total,
}: {
  view: View;
  rules: PortfolioData["flag_rules"];
  total: number;
}) {
  const headingId = useId();
  const choose = (flag: PortfolioFlag | null) => view.setFlag(view.flag === flag ? null : flag);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-2 text-sm font-semibold text-slate-800">
        Show players who need attention
      </h2>
      <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-5">
        <li>
          <FilterChoice
            pressed={view.flag === null}
            onClick={() => view.setFlag(null)}
            testId="flag-filter-all"
          >
            <span className="font-medium">All players</span>
            <span className="text-slate-700 tabular-nums">{total}</span>
            <span className="col-span-2 text-xs text-slate-600">Every player of the book.</span>
          </FilterChoice>
        </li>
        {PORTFOLIO_FLAGS.map((flag) => {
          const Icon = FLAG_ICONS[flag];
          return (
            <li key={flag}>
              <FilterChoice
                pressed={view.flag === flag}
                onClick={() => choose(flag)}
                testId={`flag-filter-${flag}`}
              >
                <span className="inline-flex items-center gap-1.5 font-medium">
                  <Icon aria-hidden="true" className="size-4" />
                  {FLAG_LABELS[flag]}
                </span>
                <span className="text-slate-700 tabular-nums">{view.counts?.[flag] ?? 0}</span>
                <span className="col-span-2 text-xs text-slate-600">{flagDescription(flag, rules)}</span>
              </FilterChoice>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function FilterChoice({
  pressed,
  onClick,
  testId,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      data-testid={testId}
      className={cn(
        "grid h-full w-full grid-cols-[1fr_auto] items-start gap-x-2 gap-y-1 rounded-lg border px-3 py-2 text-left text-sm",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
        pressed
          ? "border-indigo-600 bg-indigo-50 ring-1 ring-indigo-600"
          : "border-slate-200 bg-white hover:bg-slate-50",
      )}
    >
      {children}
    </button>
  );
}

/** Under 768 px there are no headings to press: the order is a list and a direction button. */
function MobileSort({ view }: { view: View }) {
  const id = useId();
  return (
    <div className="flex w-full items-center gap-2 md:hidden">
      <label htmlFor={id} className="text-sm text-slate-700">
        Sort by
      </label>
      <select
        id={id}
        value={view.sort}
        onChange={(e) => view.setSort(e.target.value as PortfolioSort, view.dir)}
        className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {PORTFOLIO_SORTS.map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
      </select>
      <Button
        size="icon"
        onClick={() => view.setSort(view.sort, view.dir === "desc" ? "asc" : "desc")}
        aria-label={
          view.dir === "desc" ? "Descending: switch to ascending" : "Ascending: switch to descending"
        }
      >
        {view.dir === "desc" ? (
          <ArrowDown aria-hidden="true" className="size-4" />
        ) : (
          <ArrowUp aria-hidden="true" className="size-4" />
        )}
      </Button>
    </div>
  );
}

function BookSkeleton() {
  return (
    <Card aria-busy="true" data-testid="portfolio-loading">
      <p className="sr-only">Loading the players…</p>
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <div key={i} className="flex gap-4 border-b border-slate-100 px-4 py-4">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 flex-1" />
        </div>
      ))}
    </Card>
  );
}
