import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { checkDatabase } from "@/platform/db/check-database";
import { getReadRouting } from "@/platform/db/read-router";
import { readRoute } from "@/platform/http/api-handler";
import { jsonResponse } from "@/platform/http/responses";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function healthRoute() {
    const db = await checkDatabase();
    const routing = getReadRouting();
    return jsonResponse(
      {
        status: db.ok ? "ok" : "degraded",
        // `reads`: where reads of player data go now (a standby's trouble moves them to the primary; not a 503).
        database: { reachable: db.ok, latency_ms: db.latencyMs, reads: routing.reads },
        replica: {
          configured: routing.configured,
          state: routing.state,
          lag_ms: routing.lagMs,
          max_lag_ms: routing.maxLagMs,
          checked_at: routing.checkedAt,
          fallbacks: routing.fallbacks,
        },
        // Reads waiting for their audit rows to commit (their answers wait too).
        audit: { pending: getAuditQueue().pending },
      },
      { status: db.ok ? 200 : 503, headers: db.ok ? {} : { "Retry-After": "5" } },
    );
  },
  { auth: false },
);
