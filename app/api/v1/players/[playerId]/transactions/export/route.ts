import type { PrismaClient } from "@/lib/db/generated/client";
import { routeRead } from "@/lib/db/read-router";
import { readRoute } from "@/lib/http/api-handler";
import { exportResponse } from "@/lib/http/export-response";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { countPlayerTransactions } from "@/lib/players/count-player-transactions";
import { attachmentDisposition, exportFileName } from "@/lib/players/export-file-name";
import { findTransactionPosition } from "@/lib/players/find-transaction-position";
import { streamPlayerTransactions } from "@/lib/players/stream-player-transactions";
import { EXPORT_MEDIA_TYPES, exportLines, exportPreamble } from "@/lib/players/transaction-export-format";
import { invalidParameters } from "@/lib/problems/problem";
import { playerIdSchema } from "@/lib/schemas/common";
import { transactionExportQuerySchema } from "@/lib/schemas/transaction";
import type { TransactionKey } from "@/lib/schemas/transaction-cursor";

export const dynamic = "force-dynamic";

interface ResumeFrom {
  after: string | undefined;
  after_date: Date | undefined;
  after_amount: string | undefined;
}

/**
 * The key to resume from. With the last row's own values (`after_date`, `after_amount`: the schema requires the
 * one the sort orders by) the key is built from them, so a row deleted meanwhile still marks the position; with
 * `after` alone the row is looked up, and a 400 names `after` when it is no transaction of this player.
 */
async function resumeKey(
  playerId: string,
  { after, after_date, after_amount }: ResumeFrom,
  db: PrismaClient,
): Promise<TransactionKey | undefined> {
  if (after === undefined) return undefined;
  if (after_date !== undefined || after_amount !== undefined) {
    // The amount orders read only the size and the id, the date orders only the date and the id.
    return {
      id: after,
      date: after_date ?? new Date(0),
      ...(after_amount === undefined ? {} : { amount: after_amount.replace(/^-/, "") }),
    };
  }
  const key = await findTransactionPosition({ playerId, transactionId: after }, db);
  if (key) return key;
  throw invalidParameters([
    {
      name: "after",
      in: "query",
      detail:
        "names no transaction of this player (pass the id of a row received; for a row deleted since, add its date as after_date, or its amount as after_amount for the amount orders)",
    },
  ]);
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function transactionExportRoute(ctx) {
    const playerId = parsePathParam(playerIdSchema, "playerId", ctx.params.playerId);
    const { format, sort, after, after_date, after_amount, ...filters } = parseQuery(
      transactionExportQuerySchema,
      ctx.url.searchParams,
    );
    return exportResponse(ctx, async () => {
      // One database for the three reads (the standby or the primary, lib/db/read-router.ts): the count and
      // the resume point agree with the rows streamed.
      const { batches, total } = await routeRead(async (db) => ({
        batches: await streamPlayerTransactions(
          {
            playerId,
            filters,
            sort,
            after: await resumeKey(playerId, { after, after_date, after_amount }, db),
          },
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
