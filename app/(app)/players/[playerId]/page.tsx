import type { Metadata } from "next";
import { Suspense } from "react";
import { PlayerAuditSection } from "@/components/audit/player-audit-section";
import { PlayerProfile } from "@/components/player/player-profile";
import { getCurrentSession } from "@/lib/auth/session";

type Params = Promise<{ playerId: string }>;

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

export default async function PlayerPage({ params }: { params: Params }) {
  const playerId = decodeParam((await params).playerId);
  // Only admins see the trail; the API enforces the same rule (audit:read) for every caller.
  const isAdmin = (await getCurrentSession())?.user?.role === "admin";
  // The key resets every piece of client state when another player is opened.
  return (
    <Suspense>
      <PlayerProfile key={playerId} playerId={playerId} />
      {isAdmin ? <PlayerAuditSection key={`audit-${playerId}`} playerId={playerId} /> : null}
    </Suspense>
  );
}
