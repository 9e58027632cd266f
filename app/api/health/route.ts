import { getAuditQueue } from "@/lib/audit/audit-recorder";
import { checkDatabase } from "@/lib/db/check-database";
import { readRoute } from "@/lib/http/api-handler";
import { jsonResponse } from "@/lib/http/responses";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function healthRoute() {
    const db = await checkDatabase();
    return jsonResponse(
      {
        status: db.ok ? "ok" : "degraded",
        database: { reachable: db.ok, latency_ms: db.latencyMs },
        // Reads waiting for their audit rows to commit (their answers wait too).
        audit: { pending: getAuditQueue().pending },
      },
      { status: db.ok ? 200 : 503, headers: db.ok ? {} : { "Retry-After": "5" } },
    );
  },
  { auth: false },
);
