import type { Metadata } from "next";
import { Suspense } from "react";
import { PlayerSearch } from "@/features/players/ui/player-search";
import { SCOPES, scopesForRoles } from "@/platform/auth/scopes";
import { getCurrentSession } from "@/platform/auth/session";

export const metadata: Metadata = { title: "Player lookup · Player Accounts" };

export default async function LookupPage() {
  const role = (await getCurrentSession())?.user?.role ?? null;
  // The page only words its messages from the role; the API enforces the same scopes on every request.
  const canSearchEmail = role ? scopesForRoles([role]).includes(SCOPES.playersPii) : false;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-semibold text-slate-900">Player lookup</h1>
      <p className="mt-1 text-sm text-slate-600">
        Names match without accents or capitals
        {canSearchEmail ? "" : "; e-mail addresses and phone numbers only when typed in full"}. A transaction
        ID opens it in its player's transactions. Use the arrow keys to move through the results and Enter to
        open one.
      </p>
      <div className="mt-6">
        <Suspense>
          <PlayerSearch canSearchEmail={canSearchEmail} hasAssignedPlayers={role === "vip_manager"} />
        </Suspense>
      </div>
    </div>
  );
}
