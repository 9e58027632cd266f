import type { Metadata } from "next";
import { Suspense } from "react";
import { PlayerProfile } from "@/components/player/player-profile";

// Next.js hands over route params already percent-decoded: decoding again would turn "A%41" into "AA".
type Params = Promise<{ playerId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { playerId } = await params;
  return { title: `Player ${playerId} · Player Accounts` };
}

export default async function PlayerPage({ params }: { params: Params }) {
  const { playerId } = await params;
  // The key resets every piece of client state when another player is opened.
  return (
    <Suspense>
      <PlayerProfile key={playerId} playerId={playerId} />
    </Suspense>
  );
}
