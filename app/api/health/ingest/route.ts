import { readRoute } from "@/platform/http/api-handler";
import { jsonResponse } from "@/platform/http/responses";
import { getIngestStatus } from "@/workers/ingest/ingest-status";

export const dynamic = "force-dynamic";

/** The live consumer's lag and last applied event (docs/live-data.md); a database outage answers 503 as /api/health. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function ingestHealthRoute() {
    return jsonResponse(await getIngestStatus());
  },
  { auth: false },
);
