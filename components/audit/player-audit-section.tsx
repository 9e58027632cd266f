"use client";

import { apiFetch } from "@/lib/client/api-client";
import { AuditTrail } from "./audit-trail.tsx";

/** The profile page's audit trail for admins, fetching as the signed-in user. */
export function PlayerAuditSection({ playerId }: { playerId: string }) {
  return (
    <div className="mt-5">
      <AuditTrail playerId={playerId} fetcher={apiFetch} />
    </div>
  );
}
