import type { Metadata } from "next";
import { Suspense } from "react";
import { PlayerSearch } from "@/components/lookup/player-search";

export const metadata: Metadata = { title: "Player lookup · Player Accounts" };

export default function LookupPage() {
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold text-slate-900">Player lookup</h1>
      <p className="mt-1 text-sm text-slate-600">
        Search by player id, name or email. Use the arrow keys to move through the results and Enter to open a
        profile.
      </p>
      <div className="mt-6">
        <Suspense>
          <PlayerSearch />
        </Suspense>
      </div>
    </div>
  );
}
