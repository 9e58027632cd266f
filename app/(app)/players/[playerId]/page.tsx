import type { Metadata } from "next";
import { Suspense } from "react";
import { PlayerProfile } from "@/components/player/player-profile";

type Params = Promise<{ playerId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { playerId } = await params;
  return { title: `Player ${decodeURIComponent(playerId)} · Player Accounts` };
}

export default async function PlayerPage({ params }: { params: Params }) {
  const { playerId } = await params;
  // The key resets every piece of client state when another player is opened.
  return (
    <Suspense>
      <PlayerProfile key={playerId} playerId={decodeURIComponent(playerId)} />
    </Suspense>
  );
}
