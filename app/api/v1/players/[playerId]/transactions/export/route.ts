import { routeRead } from "@/lib/db/read-router";
import { getEnv } from "@/lib/env";
import { readRoute } from "@/lib/http/api-handler";
import { acquireExportSlot } from "@/lib/http/export-gate";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { closeConnection } from "@/lib/http/request-stamp.mjs";
import { streamResponse } from "@/lib/http/stream-response";
import { attachmentDisposition, exportFileName } from "@/lib/players/export-file-name";
import { streamPlayerTransactions } from "@/lib/players/stream-player-transactions";
import { EXPORT_MEDIA_TYPES, exportLines, exportPreamble } from "@/lib/players/transaction-export-format";
import { playerIdSchema } from "@/lib/schemas/player";
import { transactionExportQuerySchema } from "@/lib/schemas/transaction";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function transactionExportRoute({ request, params, url, audit, requestId, caller }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const { format, sort, ...filters } = parseQuery(transactionExportQuerySchema, url.searchParams);
    const release = await acquireExportSlot(caller);
    let batches: Awaited<ReturnType<typeof streamPlayerTransactions>>;
    try {
      batches = await routeRead((db) => streamPlayerTransactions({ playerId, filters, sort }, db));
      audit({ operation: "export", playerId });
    } catch (error) {
      release();
      throw error;
    }
    const headers = {
      "Content-Type": EXPORT_MEDIA_TYPES[format],
      "Content-Disposition": attachmentDisposition(exportFileName({ playerId, format, filters, sort })),
    };
    if (request.method === "HEAD") {
      release();
      return new Response(null, { status: 200, headers: { "Cache-Control": "no-store", ...headers } });
    }
    async function* lines() {
      const preamble = exportPreamble(format);
      if (preamble) yield preamble;
      for await (const batch of batches ?? []) yield exportLines(format, playerId, batch);
    }
    return streamResponse(lines(), {
      requestId,
      route: url.pathname,
      onDone: release,
      idleTimeoutMs: getEnv().EXPORT_IDLE_TIMEOUT_MS,
      onIdle: () => closeConnection(request.headers),
      headers,
    });
  },
);
