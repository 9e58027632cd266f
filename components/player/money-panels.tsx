"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { TimeZoneChoice } from "@/lib/client/transaction-url-state";
import type { PlayerProfileData } from "@/lib/client/wire";
import { cn } from "@/lib/cn";
import { formatDateTime, formatRelative } from "@/lib/format/dates";
import { formatMoney } from "@/lib/format/money";
import { Badge } from "../ui/badge.tsx";
import { Card, CardHeader } from "../ui/card.tsx";
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

export function BalancesPanel({ profile }: { profile: PlayerProfileData }) {
  const b = profile.balances;
  const money = (v: string) => formatMoney(v, profile.currency);
  return (
    <Card aria-labelledby="balances-title">
      <CardHeader
        titleId="balances-title"
        title="Balances"
        description={`In the player's currency, ${profile.currency}.`}
      />
      <dl className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-5">
        <Tile
          label="Withdrawable"
          testId="balance-withdrawable"
          highlight
          note="Cash the player can take out now"
        >
          {money(b.withdrawable_balance)}
        </Tile>
        <Tile
          label="Pending withdrawal"
          testId="balance-pending"
          highlight
          note="Requested, not yet paid out"
        >
          {money(b.pending_withdrawal)}
        </Tile>
        <Tile label="Total balance" testId="balance-total" note="Cash plus bonus">
          {money(b.total_balance)}
        </Tile>
        <Tile label="Cash" testId="balance-cash" note="Real money, not bonus">
          {money(b.cash_balance)}
        </Tile>
        <Tile label="Bonus" testId="balance-bonus" note="Not withdrawable until wagered">
          {money(b.bonus_balance)}
        </Tile>
      </dl>
    </Card>
  );
}

/**
 * Key figures in plain words, each with a one-line explanation under it (readable on touch screens, where
 * tooltips are not); the API's short names (ltd, wr, …) stay in the API reference.
 */
export function KpiPanel({ profile, tz }: { profile: PlayerProfileData; tz: TimeZoneChoice }) {
  const k = profile.kpi;
  const money = (v: string) => formatMoney(v, profile.currency);
  return (
    <Card aria-labelledby="kpi-title">
      <CardHeader
        titleId="kpi-title"
        title="Key figures"
        description="Lifetime figures from the player's completed transactions."
      />
      <dl className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-4">
        <Tile label="Lifetime deposits" testId="kpi-ltd" note="Every completed deposit, added up">
          {money(k.ltd)}
        </Tile>
        <Tile label="Lifetime withdrawals" testId="kpi-ltw" note="Every completed withdrawal, added up">
          {money(k.ltw)}
        </Tile>
        <Tile
          label="Net cash"
          testId="kpi-ltnc"
          note="Deposits minus withdrawals; below zero when the player took out more"
        >
          {money(k.ltnc)}
        </Tile>
        <Tile
          label="Wagering left"
          testId="kpi-wr"
          note="Still to bet before the active bonus turns into cash"
        >
          {money(k.wr)}
        </Tile>
        <Tile label="Active bonus" testId="kpi-active-bonus" note="Whether a bonus balance is open">
          <YesNo value={k.active_bonus} />
        </Tile>
        <LastDepositTile profile={profile} tz={tz} />
        <LastWithdrawalTile profile={profile} tz={tz} />
      </dl>
    </Card>
  );
}

const noneYet = <span className="text-base font-normal text-slate-600">None</span>;

/** The newest completed deposit: its amount, and when (in `tz`, and how long ago). */
function LastDepositTile({ profile, tz }: { profile: PlayerProfileData; tz: TimeZoneChoice }) {
  const last = profile.kpi.last_deposit;
  return (
    <Tile
      label="Last deposit"
      testId="kpi-last-deposit"
      note={
        last ? (
          <time dateTime={last.date}>
            {formatDateTime(last.date, tz)} · {formatRelative(last.date)}
          </time>
        ) : (
          "The newest completed deposit"
        )
      }
    >
      {last ? formatMoney(last.amount, profile.currency) : noneYet}
    </Tile>
  );
}

/** The newest withdrawal request, pending or completed (a badge says which), with its amount and date. */
function LastWithdrawalTile({ profile, tz }: { profile: PlayerProfileData; tz: TimeZoneChoice }) {
  const last = profile.kpi.last_withdrawal;
  return (
    <Tile
      label="Last withdrawal"
      testId="kpi-last-withdrawal"
      note={
        last ? (
          <span className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
            <Badge tone={last.status === "pending" ? "warning" : "positive"}>
              {last.status === "pending" ? "Pending" : "Completed"}
            </Badge>
            <time dateTime={last.date} data-testid="kpi-last-withdrawal-date">
              {formatDateTime(last.date, tz)} · {formatRelative(last.date)}
            </time>
          </span>
        ) : (
          "The newest withdrawal request"
        )
      }
    >
      {last ? formatMoney(last.amount, profile.currency) : noneYet}
    </Tile>
  );
}
