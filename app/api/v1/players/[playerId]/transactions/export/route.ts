import type { PrismaClient } from "@/lib/db/generated/client";
import { routeRead } from "@/lib/db/read-router";
import { getEnv } from "@/lib/env";
import { readRoute } from "@/lib/http/api-handler";
import { acquireExportSlot } from "@/lib/http/export-gate";
import { exportEncoding, sendContentEncoding, TOTAL_COUNT_HEADER } from "@/lib/http/gzip-stream";
import { invalidParameters } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { closeConnection } from "@/lib/http/request-stamp.mjs";
import { streamResponse } from "@/lib/http/stream-response";
import { countPlayerTransactions } from "@/lib/players/count-player-transactions";
import { attachmentDisposition, exportFileName } from "@/lib/players/export-file-name";
import { findTransactionPosition } from "@/lib/players/find-transaction-position";
import { streamPlayerTransactions } from "@/lib/players/stream-player-transactions";
import { EXPORT_MEDIA_TYPES, exportLines, exportPreamble } from "@/lib/players/transaction-export-format";
import { playerIdSchema } from "@/lib/schemas/player";
import { transactionExportQuerySchema } from "@/lib/schemas/transaction";

export const dynamic = "force-dynamic";

/** `after=` as the key to resume from; a 400 naming `after` when it is no transaction of this player. */
async function resumeKey(playerId: string, after: string | undefined, db: PrismaClient) {
  if (after === undefined) return undefined;
  const key = await findTransactionPosition({ playerId, transactionId: after }, db);
  if (key) return key;
  throw invalidParameters([
    {
      name: "after",
      in: "query",
      detail: "names no transaction of this player (pass the id of a row received)",
    },
  ]);
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function transactionExportRoute({ request, params, url, commitAudit, requestId, caller }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const { format, sort, after, ...filters } = parseQuery(transactionExportQuerySchema, url.searchParams);
    const release = await acquireExportSlot(caller);
    let batches: Awaited<ReturnType<typeof streamPlayerTransactions>>;
    let total: number;
    try {
      // One database for the three reads (the standby or the primary, lib/db/read-router.ts): the count and
      // the resume point agree with the rows streamed.
      ({ batches, total } = await routeRead(async (db) => ({
        batches: await streamPlayerTransactions(
          { playerId, filters, sort, after: await resumeKey(playerId, after, db) },
          db,
        ),
        total: await countPlayerTransactions({ playerId, filters }, db),
      })));
      // Committed here, not declared: nothing may fail after the gzip header is on the response (below).
      await commitAudit({ operation: "export", playerId });
    } catch (error) {
      release();
      throw error;
    }
    const encoding = exportEncoding(request);
    const headers = {
      ...encoding.headers,
      // A resumed CSV continues the file: no second header row (its media type says so).
      "Content-Type": after
        ? EXPORT_MEDIA_TYPES[format].replace("header=present", "header=absent")
        : EXPORT_MEDIA_TYPES[format],
      "Content-Disposition": attachmentDisposition(exportFileName({ playerId, format, filters, sort })),
      [TOTAL_COUNT_HEADER]: String(total),
    };
    sendContentEncoding(request, encoding);
    if (request.method === "HEAD") {
      release();
      return new Response(null, { status: 200, headers });
    }
    async function* lines() {
      const preamble = after ? "" : exportPreamble(format);
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
      gzip: encoding.gzip,
    });
  },
);
