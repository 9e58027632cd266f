"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { PlayerProfileData } from "@/features/players/client/queries";
import { formatDateTime, formatRelative } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";
import { formatMoney } from "@/platform/format/money";
import { cn } from "@/platform/ui/cn";
import { Badge } from "../../../platform/ui/badge.tsx";
import { TitledCard } from "../../../platform/ui/card.tsx";
import { YesNo } from "./yes-no.tsx";

/**
 * One figure: a label, the value, and a line saying what it is; optionally its change against the previous period
 * and a link (`href`) to the transactions behind it (the value is the link, `linkLabel` says where it goes).
 */
export function Tile({
  label,
  children,
  highlight = false,
  testId,
  note,
  change,
  href,
  linkLabel,
}: {
  label: string;
  children: ReactNode;
  highlight?: boolean;
  testId: string;
  note?: ReactNode;
  change?: ReactNode;
  href?: string | undefined;
  linkLabel?: string | undefined;
}) {
  return (
    <div
      className={cn(
        "flex min-w-0 flex-col rounded-md border px-2.5 py-2.5 sm:px-3",
        highlight ? "border-indigo-200 bg-indigo-50/60" : "border-slate-200 bg-white",
      )}
    >
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd
        className={cn(
          "mt-1 font-semibold tabular-nums text-slate-900",
          highlight ? "text-base sm:text-xl" : "text-sm sm:text-lg",
        )}
        data-testid={testId}
      >
        {href ? (
          <Link
            href={href}
            // No prefetch: a prefetched view renders on the server as the user, i.e. reads (and audits) data
            // nobody asked for; ten such links would also load the page.
            prefetch={false}
            className="rounded-sm text-indigo-800 underline decoration-indigo-300 decoration-dotted underline-offset-4 hover:decoration-solid focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            data-testid={`${testId}-link`}
          >
            {children}
            {linkLabel ? <span className="sr-only">: {linkLabel}</span> : null}
          </Link>
        ) : (
          children
        )}
      </dd>
      {note ? <dd className="mt-0.5 text-xs text-slate-600">{note}</dd> : null}
      {change ? (
        <dd className="mt-0.5 text-xs text-slate-700" data-testid={`${testId}-change`}>
          {change}
        </dd>
      ) : null}
    </div>
  );
}

/** A tile of money: its label, its test id, the figure it shows, the line under it, and whether it stands out. */
type MoneyTile<K extends string> = readonly [
  label: string,
  testId: string,
  key: K,
  note: string,
  highlight?: true,
];

type Balance = keyof PlayerProfileData["balances"];

const BALANCE_TILES: readonly MoneyTile<Balance>[] = [
  ["Withdrawable", "balance-withdrawable", "withdrawable_balance", "Cash the player can take out now", true],
  ["Pending withdrawal", "balance-pending", "pending_withdrawal", "Requested, not yet paid out", true],
  ["Total balance", "balance-total", "total_balance", "Cash plus bonus"],
  ["Cash", "balance-cash", "cash_balance", "Real money, not bonus"],
  ["Bonus", "balance-bonus", "bonus_balance", "Not withdrawable until wagered"],
];

const KPI_TILES: readonly MoneyTile<"ltd" | "ltw" | "ltnc" | "wr">[] = [
  ["Lifetime deposits", "kpi-ltd", "ltd", "Every completed deposit, added up"],
  ["Lifetime withdrawals", "kpi-ltw", "ltw", "Every completed withdrawal, added up"],
  ["Net cash", "kpi-ltnc", "ltnc", "Deposits minus withdrawals; below zero when the player took out more"],
  ["Wagering left", "kpi-wr", "wr", "Still to bet before the active bonus turns into cash"],
];

function MoneyTiles<K extends string>({
  tiles,
  figures,
  currency,
}: {
  tiles: readonly MoneyTile<K>[];
  figures: Record<K, string>;
  currency: string;
}) {
  return tiles.map(([label, testId, key, note, highlight = false]) => (
    <Tile key={testId} label={label} testId={testId} note={note} highlight={highlight}>
      {formatMoney(figures[key], currency)}
    </Tile>
  ));
}

export function BalancesPanel({ profile }: { profile: PlayerProfileData }) {
  return (
    <TitledCard
      titleId="balances-title"
      title="Balances"
      description={`In the player's currency, ${profile.currency}.`}
    >
      <dl className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-5">
        <MoneyTiles tiles={BALANCE_TILES} figures={profile.balances} currency={profile.currency} />
      </dl>
    </TitledCard>
  );
}

/**
 * Key figures in plain words, each with a one-line explanation under it (readable on touch screens, where
 * tooltips are not); the API's short names (ltd, wr, …) stay in the API reference.
 */
export function KpiPanel({ profile, tz }: { profile: PlayerProfileData; tz: TimeZoneChoice }) {
  return (
    <TitledCard
      titleId="kpi-title"
      title="Key figures"
      description="Lifetime figures from the player's completed transactions."
    >
      <dl className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-4">
        <MoneyTiles tiles={KPI_TILES} figures={profile.kpi} currency={profile.currency} />
        <Tile label="Active bonus" testId="kpi-active-bonus" note="Whether a bonus balance is open">
          <YesNo value={profile.kpi.active_bonus} />
        </Tile>
        <LastTile kind="deposit" profile={profile} tz={tz} />
        <LastTile kind="withdrawal" profile={profile} tz={tz} />
      </dl>
    </TitledCard>
  );
}

const noneYet = <span className="text-base font-normal text-slate-600">None</span>;

/** What a tile of the newest transaction of a kind shows while there is none. */
const LAST_NONE = { deposit: "The newest completed deposit", withdrawal: "The newest withdrawal request" };

/**
 * The newest completed deposit, or the newest withdrawal request (pending or completed: a badge says which):
 * its amount, and when (in `tz`, and how long ago).
 */
function LastTile({
  kind,
  profile,
  tz,
}: {
  kind: "deposit" | "withdrawal";
  profile: PlayerProfileData;
  tz: TimeZoneChoice;
}) {
  const last = kind === "deposit" ? profile.kpi.last_deposit : profile.kpi.last_withdrawal;
  const when = last ? (
    <time dateTime={last.date} data-testid={`kpi-last-${kind}-date`}>
      {formatDateTime(last.date, tz)} · {formatRelative(last.date)}
    </time>
  ) : null;
  const status = kind === "withdrawal" ? profile.kpi.last_withdrawal?.status : undefined;
  return (
    <Tile
      label={`Last ${kind}`}
      testId={`kpi-last-${kind}`}
      note={
        status ? (
          <span className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
            <Badge tone={status === "pending" ? "warning" : "positive"}>
              {status === "pending" ? "Pending" : "Completed"}
            </Badge>
            {when}
          </span>
        ) : (
          (when ?? LAST_NONE[kind])
        )
      }
    >
      {last ? formatMoney(last.amount, profile.currency) : noneYet}
    </Tile>
  );
}
