"use client";

import { ArrowLeft, UserRoundX } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import type { ComponentType, ReactNode } from "react";
import { LiveIndicator, LiveUpdatesContext } from "@/features/live/client";
import type { PlayerSection } from "@/features/players/client/player-sections";
import { usePlayerPage } from "@/features/players/client/use-player-page";
import { cn } from "@/platform/ui/cn";
import { Card, CardHeader } from "../../../platform/ui/card.tsx";
import { ErrorState, isNotFound } from "../../../platform/ui/error-state.tsx";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";
import { BalancesPanel, KpiPanel } from "./money-panels.tsx";
import { PeriodSummary } from "./period-summary.tsx";
import { PlayerHeader, PlayerHeaderSkeleton } from "./player-header.tsx";
import { ProfileCard } from "./profile-card.tsx";
import { SectionTabs, sectionPanelId, sectionTabId } from "./section-tabs.tsx";
import { TimeZoneSwitch } from "./time-zone-switch.tsx";

// Recharts is most of the chart's weight: it loads when the Activity section is first shown.
const ActivityChart = dynamic(() => import("./activity-chart.tsx").then((m) => m.ActivityChart), {
  loading: () => <ActivitySkeleton />,
});

// TanStack Table, the filters and the pager are most of the page's own code, and the Overview opens first:
// in the browser they load when Transactions is first chosen (or the pointer reaches its tab). The server
// renders the panel from a plain import (`typeof window` is a build-time constant: the browser bundle keeps
// only the dynamic import), so a page opened on Transactions has its rows in the HTML's first flush and
// hydrates them once the chunk is in. Neither side has a Suspense boundary here, so the two trees match;
// a section change is a transition, which keeps the old section shown while the chunk loads. In development
// next/dynamic wraps the component in more layers than on the server, so the ids React generates (useId) came
// out different and a page opened on Transactions logged a hydration error: `npm run dev` imports it plainly.
const loadTransactionsPanel = () =>
  import("../../transactions/ui/transactions-panel.tsx").then((m) => m.TransactionsPanel);
const TransactionsPanel: ComponentType<{ playerId: string }> =
  typeof window === "undefined" || process.env.NODE_ENV === "development"
    ? require("../../transactions/ui/transactions-panel.tsx").TransactionsPanel
    : dynamic(loadTransactionsPanel);

/** Starts loading a section's code before the click that needs it. */
function preloadSection(section: PlayerSection) {
  if (section === "transactions") void loadTransactionsPanel();
}

type PlayerPage = ReturnType<typeof usePlayerPage>;

const linkClass =
  "inline-flex items-center gap-1 rounded-sm text-sm text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/**
 * The player 360: a sticky header (identity, status, key balances) and one section at a time, chosen
 * in the URL (`?section=`). `audit` is the admin trail, rendered by the server for admins only (null
 * otherwise: no Audit tab). `contactMasked`: this role gets e-mail and phone masked by the API. The page follows
 * its player's changes while it is open (usePlayerLiveUpdates) when the server has a feed of them.
 */
export function PlayerProfile({
  playerId,
  audit = null,
  contactMasked = false,
  liveUpdates = true,
}: {
  playerId: string;
  audit?: ReactNode;
  contactMasked?: boolean;
  /** False when the server has no feed of changes: the page then makes no request for one and says so. */
  liveUpdates?: boolean;
}) {
  const page = usePlayerPage(playerId, { audit: audit !== null, liveUpdates });
  const { profile, section, tz } = page;
  if (profile.isError && isNotFound(profile.error)) return <PlayerNotFound playerId={playerId} />;

  const tabs = (
    <SectionTabs
      sections={page.sections}
      current={section}
      onSelect={page.select}
      onIntent={preloadSection}
      hrefFor={page.hrefFor}
    />
  );

  return (
    <LiveUpdatesContext value={page.live}>
      <PlayerTopBar live={page.live} />
      <div ref={page.top} />
      {profile.isSuccess ? (
        <PlayerHeader profile={profile.data} tabs={tabs} />
      ) : (
        <PlayerHeaderSkeleton playerId={playerId} tabs={tabs} loading={profile.isPending} />
      )}

      <div
        role="tabpanel"
        id={sectionPanelId(section)}
        aria-labelledby={sectionTabId(section)}
        data-testid={`section-panel-${section}`}
        aria-busy={page.switching || undefined}
        className={cn("mt-4 space-y-5 transition-opacity", page.switching && "opacity-60")}
      >
        {section === "overview" ? (
          <OverviewSection playerId={playerId} profile={profile} tz={tz} contactMasked={contactMasked} />
        ) : null}
        {section === "transactions" ? <TransactionsPanel playerId={playerId} /> : null}
        {section === "activity" ? <ActivityChart playerId={playerId} /> : null}
        {section === "audit" ? audit : null}
      </div>
    </LiveUpdatesContext>
  );
}

/** Back to the lookup, and the page's live status and time zone switch. */
function PlayerTopBar({ live }: { live: PlayerPage["live"] }) {
  return (
    <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
      <Link href="/" className={linkClass}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Player lookup
      </Link>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <LiveIndicator status={live.status} />
        {/*
          On a phone (under 480 px) a line of its own from the first paint: once hydrated, "Local" names the
          browser's zone and no longer fits beside the indicator; wrapping then moved the whole page down (CLS 0.12).
        */}
        <div className="basis-full min-[480px]:basis-auto">
          <TimeZoneSwitch />
        </div>
      </div>
    </div>
  );
}

/** The Overview: balances, key figures, the period summary and the details, once the profile is in. */
function OverviewSection({
  playerId,
  profile,
  tz,
  contactMasked,
}: {
  playerId: string;
  profile: PlayerPage["profile"];
  tz: PlayerPage["tz"];
  contactMasked: boolean;
}) {
  if (profile.isPending) return <OverviewSkeleton />;
  if (profile.isError)
    return (
      <Card>
        <ErrorState title="Could not load this player" query={profile} />
      </Card>
    );
  return (
    <>
      <BalancesPanel profile={profile.data} />
      <KpiPanel profile={profile.data} tz={tz} />
      <PeriodSummary playerId={playerId} tz={tz} />
      <ProfileCard profile={profile.data} tz={tz} contactMasked={contactMasked} />
    </>
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

function ActivitySkeleton() {
  return (
    <Card aria-busy="true">
      <CardHeader title="Activity, last 12 months" />
      <div className="p-4 sm:px-5">
        <p role="status" className="sr-only">
          Loading the activity chart…
        </p>
        <Skeleton className="h-72 w-full" />
      </div>
    </Card>
  );
}

const SKELETON_CARDS = [
  { name: "balances", tiles: [0, 1, 2, 3, 4] },
  { name: "key-figures", tiles: [0, 1, 2, 3, 4, 5, 6] },
];

/** The Overview's shapes and sizes, so the content does not move when it arrives. */
function OverviewSkeleton() {
  return (
    <div className="space-y-5" aria-busy="true">
      <p role="status" className="sr-only">
        Loading the player…
      </p>
      {SKELETON_CARDS.map(({ name, tiles }) => (
        <Card key={name}>
          <div className="border-b border-slate-100 px-4 py-3 sm:px-5">
            <Skeleton className="h-5 w-28" />
          </div>
          <div className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-4">
            {tiles.map((i) => (
              <Skeleton key={i} className="h-20 w-full" />
            ))}
          </div>
        </Card>
      ))}
    </div>
  );
}
