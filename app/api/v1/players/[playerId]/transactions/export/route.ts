import type { PrismaClient } from "@/lib/db/generated/client";
import { routeRead } from "@/lib/db/read-router";
import { readRoute } from "@/lib/http/api-handler";
import { exportResponse } from "@/lib/http/export-response";
import { invalidParameters } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
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
  async function transactionExportRoute(ctx) {
    const playerId = parsePathParam(playerIdSchema, "playerId", ctx.params.playerId);
    const { format, sort, after, ...filters } = parseQuery(
      transactionExportQuerySchema,
      ctx.url.searchParams,
    );
    return exportResponse(ctx, async () => {
      // One database for the three reads (the standby or the primary, lib/db/read-router.ts): the count and
      // the resume point agree with the rows streamed.
      const { batches, total } = await routeRead(async (db) => ({
        batches: await streamPlayerTransactions(
          { playerId, filters, sort, after: await resumeKey(playerId, after, db) },
          db,
        ),
        total: await countPlayerTransactions({ playerId, filters }, db),
      }));
      await ctx.commitAudit({ operation: "export", playerId });
      async function* lines() {
        const preamble = after ? "" : exportPreamble(format);
        if (preamble) yield preamble;
        for await (const batch of batches) yield exportLines(format, playerId, batch);
      }
      return {
        // A resumed CSV continues the file: no second header row (its media type says so).
        contentType: after
          ? EXPORT_MEDIA_TYPES[format].replace("header=present", "header=absent")
          : EXPORT_MEDIA_TYPES[format],
        contentDisposition: attachmentDisposition(exportFileName({ playerId, format, filters, sort })),
        total,
        lines,
      };
    });
  },
);
