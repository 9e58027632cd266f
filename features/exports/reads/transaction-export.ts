import { attachmentDisposition, exportFileName } from "@/features/exports/data/export-file-name";
import { streamPlayerTransactions } from "@/features/exports/data/stream-player-transactions";
import {
  EXPORT_MEDIA_TYPES,
  exportLines,
  exportPreamble,
} from "@/features/exports/data/transaction-export-format";
import type { TransactionKey } from "@/features/transactions";
import { transactionExportQuerySchema } from "@/features/transactions";
import { countPlayerTransactions, findTransactionPosition } from "@/features/transactions/server";
import type { PrismaClient } from "@/platform/db/generated/client";
import { invalidParameters } from "@/platform/problems/problem";
import { playerIdSchema } from "@/platform/schemas/common";
import { defineExport } from "../../../platform/reads/read-definition.ts";

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

/**
 * GET /players/{playerId}/transactions/export: the player's transactions under the list's filters as CSV or
 * NDJSON, resumable after a row. One database for the three reads: the count and the resume point agree with
 * the rows streamed. Audited once, as `export`, before the first byte.
 */
export const transactionExport = defineExport({
  params: { playerId: playerIdSchema },
  query: transactionExportQuerySchema,
  begin: async function transactionExport({ params: { playerId }, query, db, commitAudit }) {
    const { format, sort, after, after_date, after_amount, ...filters } = query;
    const batches = await streamPlayerTransactions(
      { playerId, filters, sort, after: await resumeKey(playerId, { after, after_date, after_amount }, db) },
      db,
    );
    const total = await countPlayerTransactions({ playerId, filters }, db);
    await commitAudit({ operation: "export", playerId });
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
  },
});
