"use client";

import type { ReactNode } from "react";
import type { PlayerProfileData } from "@/features/players/client/queries";
import { BlockedBadge, KycBadge, WithdrawalBadge } from "@/features/transactions/client";
import { formatMoney } from "@/platform/format/money";
import { cn } from "@/platform/ui/cn";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";

/**
 * The player's identity, status and key balances, kept in view (sticky) over every section, with the
 * section bar under it. Compact on a phone: one line for the name, one for the badges, three balances.
 */
export function PlayerHeader({ profile, tabs }: { profile: PlayerProfileData; tabs: ReactNode }) {
  const restricted =
    profile.blocked || profile.withdrawal_status === "on_hold" || profile.withdrawal_status === "blocked";
  return (
    <HeaderFrame restricted={restricted} tabs={tabs}>
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex min-w-0 items-baseline gap-x-2">
          <h1
            id="player-name"
            className="truncate text-lg font-semibold text-slate-900 sm:text-xl"
            data-testid="player-name"
          >
            {profile.name}
          </h1>
          <span className="shrink-0 font-mono text-xs text-slate-600 sm:text-sm">
            <span className="sr-only">Player id </span>
            <span data-testid="player-id">{profile.id}</span>
          </span>
        </div>
        <div className="flex flex-wrap gap-1" data-testid="status-badges">
          <BlockedBadge blocked={profile.blocked} strong />
          <WithdrawalBadge status={profile.withdrawal_status} strong />
          <KycBadge status={profile.kyc_status} />
        </div>
      </div>
      <HeaderBalances profile={profile} />
    </HeaderFrame>
  );
}

function HeaderBalances({ profile }: { profile: PlayerProfileData }) {
  const b = profile.balances;
  const money = (v: string) => formatMoney(v, profile.currency);
  return (
    <dl
      className="grid grid-cols-3 gap-x-3 text-left lg:flex lg:gap-x-6 lg:text-right"
      aria-label="Key balances"
      data-testid="header-balances"
    >
      <HeaderFigure label="Withdrawable" testId="header-withdrawable">
        {money(b.withdrawable_balance)}
      </HeaderFigure>
      <HeaderFigure
        label={
          <>
            Pending<span className="sr-only sm:not-sr-only"> withdrawal</span>
          </>
        }
        testId="header-pending"
      >
        {money(b.pending_withdrawal)}
      </HeaderFigure>
      <HeaderFigure label="Total balance" testId="header-total">
        {money(b.total_balance)}
      </HeaderFigure>
    </dl>
  );
}

function HeaderFigure({
  label,
  testId,
  children,
}: {
  label: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="truncate text-xs text-slate-600">{label}</dt>
      <dd className="break-words text-sm font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The sticky frame; a red rule on its top edge when the account or its withdrawals are restricted. */
function HeaderFrame({
  restricted = false,
  tabs,
  children,
}: {
  restricted?: boolean;
  tabs: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      data-testid="player-header"
      className={cn(
        "sticky top-0 z-20 -mx-4 border-b border-slate-200 bg-white/95 px-4 pt-2 shadow-xs backdrop-blur sm:mx-0 sm:border-x sm:px-5",
        restricted ? "border-t-4 border-t-red-700" : "border-t border-t-slate-200",
      )}
    >
      <div className="flex flex-col gap-2 lg:flex-row lg:items-end lg:justify-between lg:gap-6">
        {children}
      </div>
      <div className="mt-1.5">{tabs}</div>
    </div>
  );
}

/** The header while the player loads (its shape) or failed to load (its id), with the section bar usable. */
export function PlayerHeaderSkeleton({
  playerId,
  tabs,
  loading,
}: {
  playerId: string;
  tabs: ReactNode;
  loading: boolean;
}) {
  if (!loading) {
    return (
      <HeaderFrame tabs={tabs}>
        <h1 className="text-lg font-semibold text-slate-900 sm:text-xl">Player {playerId}</h1>
      </HeaderFrame>
    );
  }
  return (
    <HeaderFrame tabs={tabs}>
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex items-baseline gap-x-2">
          <h1 className="sr-only">Player {playerId}</h1>
          <Skeleton className="h-6 w-48" />
          <span className="font-mono text-xs text-slate-600 sm:text-sm">{playerId}</span>
        </div>
        <div className="flex gap-1">
          <Skeleton className="h-5 w-24 rounded-full" />
          <Skeleton className="h-5 w-32 rounded-full" />
          <Skeleton className="h-5 w-28 rounded-full" />
        </div>
      </div>
      <div className="grid grid-cols-3 gap-x-3 lg:flex lg:gap-x-6">
        {[0, 1, 2].map((i) => (
          <div key={i} className="space-y-1">
            <Skeleton className="h-3 w-20" />
            <Skeleton className="h-4 w-24" />
          </div>
        ))}
      </div>
    </HeaderFrame>
  );
}
