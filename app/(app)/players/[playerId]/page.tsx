import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PlayerAuditSection } from "@/features/audit/ui/player-audit-section";
import { isPlayerChangeFeedAvailable } from "@/features/live/data/player-change-feed";
import { PlayerProfile } from "@/features/players/ui/player-profile";
import { SCOPES, scopesForRoles } from "@/platform/auth/scopes";
import { getCurrentSession } from "@/platform/auth/session";
import { firstViewUser } from "../../first-view-user.ts";
import { prefetchFirstView } from "./first-view.ts";

type Params = Promise<{ playerId: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Next.js 16 gives the page its dynamic param percent-encoded (as in its router tree: "A%2541" for the
 * id "A%41") but generateMetadata the decoded value; the e2e tests pin both down.
 */
function decodeParam(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { playerId } = await params;
  return { title: `Player ${playerId} · Player Accounts` };
}

export default async function PlayerPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const playerId = decodeParam((await params).playerId);
  // The (app) layout has already sent a visitor without a session or without a role elsewhere.
  const session = await getCurrentSession();
  const role = session?.user.role ?? null;
  // Only admins see the trail; the API enforces the same rule (audit:read) for every caller.
  const isAdmin = role === "admin";
  // The first view is in the HTML: read on the server as this user, handed to the browser's query cache.
  const user = session && role ? await firstViewUser(session) : null;
  const firstView = user
    ? await prefetchFirstView(playerId, await searchParams, user, { audit: isAdmin })
    : undefined;
  // The key resets every piece of client state when another player is opened. No Suspense boundary: the
  // page is dynamic, so nothing in it suspends, and the first view is then part of the HTML's first
  // flush instead of streamed behind a boundary that only a script reveals.
  return (
    <HydrationBoundary state={firstView}>
      <PlayerProfile
        key={playerId}
        playerId={playerId}
        audit={isAdmin ? <PlayerAuditSection playerId={playerId} /> : null}
        contactMasked={!role || !scopesForRoles([role]).includes(SCOPES.playersPii)}
        liveUpdates={isPlayerChangeFeedAvailable()}
      />
    </HydrationBoundary>
  );
}
