"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";

/*
 * Loaded on demand: the trail's code is its own chunk, fetched when an admin opens the Audit section.
 * The server renders this component for admins only, so other roles never request that chunk.
 */
const AuditTrail = dynamic(() => import("./audit-trail.tsx").then((m) => m.AuditTrail), {
  loading: () => (
    <div aria-busy="true" className="rounded-lg border border-slate-200 bg-white p-4">
      <p role="status" className="sr-only">
        Loading the audit trail…
      </p>
      <Skeleton className="h-5 w-32" />
      <Skeleton className="mt-4 h-64 w-full" />
    </div>
  ),
});

/** The profile page's audit trail for admins, fetching as the signed-in user. */
export function PlayerAuditSection({ playerId }: { playerId: string }) {
  return <AuditTrail playerId={playerId} />;
}
