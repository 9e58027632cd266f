"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, UserRoundX } from "lucide-react";
import Link from "next/link";
import { queries } from "@/lib/client/queries";
import { ErrorState, isNotFound } from "../error-state.tsx";
import { TransactionsPanel } from "../transactions/transactions-panel.tsx";
import { Card } from "../ui/card.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { ActivityChart } from "./activity-chart.tsx";
import { BalancesPanel, KpiPanel } from "./money-panels.tsx";
import { ProfileCard } from "./profile-card.tsx";
import { TimeZoneSwitch, useTimeZone } from "./time-zone-switch.tsx";

const linkClass =
  "inline-flex items-center gap-1 rounded-sm text-sm text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

export function PlayerProfile({ playerId }: { playerId: string }) {
  const profile = useQuery(queries.playerProfile(playerId));
  const [tz] = useTimeZone();

  if (profile.isError && isNotFound(profile.error)) return <PlayerNotFound playerId={playerId} />;

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link href="/" className={linkClass}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Player lookup
        </Link>
        <TimeZoneSwitch />
      </div>

      {profile.isPending ? (
        <ProfileSkeleton />
      ) : profile.isError ? (
        <Card>
          <h1 className="sr-only">Player {playerId}</h1>
          <ErrorState
            title="Could not load this player"
            error={profile.error}
            onRetry={() => void profile.refetch()}
            retrying={profile.isFetching}
          />
        </Card>
      ) : (
        <>
          <ProfileCard profile={profile.data} tz={tz} />
          <BalancesPanel profile={profile.data} />
          <KpiPanel profile={profile.data} tz={tz} />
        </>
      )}

      <ActivityChart playerId={playerId} />
      <TransactionsPanel playerId={playerId} tz={tz} />
    </div>
  );
}

function PlayerNotFound({ playerId }: { playerId: string }) {
  return (
    <Card className="mx-auto max-w-xl">
      <div className="flex flex-col items-center gap-3 px-6 py-12 text-center">
        <UserRoundX aria-hidden="true" className="size-8 text-slate-500" />
        <h1 className="text-xl font-semibold text-slate-900">Player not found</h1>
        <p className="text-slate-700">
          There is no player with the id{" "}
          <code className="rounded bg-slate-100 px-1 font-mono">{playerId}</code>.
        </p>
        <Link href="/" className={`${linkClass} mt-2 text-indigo-700 underline underline-offset-4`}>
          Search for a player
        </Link>
      </div>
    </Card>
  );
}

/** The loaded page's shapes and sizes, so the content does not move when it arrives. */
function ProfileSkeleton() {
  return (
    <div className="space-y-5" aria-busy="true">
      <p role="status" className="sr-only">
        Loading the player…
      </p>
      <Card>
        <div className="space-y-3 border-b border-slate-100 px-4 py-4 sm:px-5">
          <Skeleton className="h-8 w-64" />
          <div className="flex gap-1.5">
            <Skeleton className="h-5 w-28 rounded-full" />
            <Skeleton className="h-5 w-24 rounded-full" />
            <Skeleton className="h-5 w-36 rounded-full" />
          </div>
        </div>
        <div className="grid grid-cols-1 gap-6 px-4 py-4 sm:px-5 lg:grid-cols-3">
          {[0, 1, 2].map((g) => (
            <div key={g} className="space-y-3">
              <Skeleton className="h-4 w-24" />
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                {[0, 1, 2, 3, 4, 5].map((i) => (
                  <div key={i} className="space-y-1.5">
                    <Skeleton className="h-3 w-20" />
                    <Skeleton className="h-4 w-32" />
                  </div>
                ))}
              </div>
            </div>
          ))}
        </div>
        <div className="border-t border-slate-100 px-4 py-3 sm:px-5">
          <Skeleton className="h-5 w-72" />
        </div>
      </Card>
      <Card>
        <div className="border-b border-slate-100 px-4 py-3 sm:px-5">
          <Skeleton className="h-5 w-24" />
        </div>
        <div className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-5">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      </Card>
      <Card>
        <div className="border-b border-slate-100 px-4 py-3 sm:px-5">
          <Skeleton className="h-5 w-28" />
        </div>
        <div className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-4">
          {[0, 1, 2, 3, 4, 5, 6].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      </Card>
    </div>
  );
}
