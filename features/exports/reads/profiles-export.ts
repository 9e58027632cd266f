import { countPlayerProfiles } from "@/features/exports/data/count-player-profiles";
import { streamPlayerProfiles } from "@/features/exports/data/stream-player-profiles";
import { maskProfileContact, type PlayerProfile, playerExportQuerySchema } from "@/features/players";
import { assertPlayerExists } from "@/features/players/server";
import { hasScope, SCOPES } from "@/platform/auth/scopes";
import type { PrismaClient } from "@/platform/db/generated/client";
import type { AuditedRead } from "@/platform/http/api-context";
import { AppError } from "@/platform/http/errors";
import { stringifyJson } from "@/platform/http/json";
import { invalidParameters } from "@/platform/problems/problem";
import { defineExport } from "../../../platform/reads/read-definition.ts";

/** `after=` must name a player (the position to resume from); a 400 naming `after` otherwise. */
async function checkAfter(after: string | undefined, db: PrismaClient): Promise<void> {
  if (after === undefined) return;
  try {
    await assertPlayerExists({ playerId: after }, db);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    throw invalidParameters([
      { name: "after", in: "query", detail: "names no player (pass the id of the last profile received)" },
    ]);
  }
}

/** One batch's audit row: the players whose full profiles it sends (docs/decisions.md). */
const batchAudit = (profiles: PlayerProfile[]): AuditedRead => ({
  operation: "profiles_export",
  playerId: null,
  resultPlayerIds: profiles.map((p) => p.id),
});

/**
 * GET /api/v1/exports/players: the full profiles the caller may read, masked as the profile read masks them, one
 * JSON object a line in id order. Each batch is audited (its players) before it is sent: the first before the
 * response, the others as the stream reaches them; a batch that cannot be recorded ends the transfer unsent.
 */
export const profilesExport = defineExport({
  params: {},
  query: playerExportQuerySchema,
  begin: async function profilesExport({ query: { manager, after }, principal, db, head, commitAudit }) {
    const pii = hasScope(principal, SCOPES.playersPii);
    const toLines = (profiles: PlayerProfile[]) =>
      profiles.map((p) => `${stringifyJson(pii ? p : maskProfileContact(p))}\n`).join("");
    await checkAfter(after, db);
    const total = await countPlayerProfiles({ manager }, db);
    const batches = streamPlayerProfiles({ manager, after }, db);
    const first = head ? { done: true as const } : await batches.next();
    await commitAudit(batchAudit(first.done ? [] : first.value));
    async function* lines() {
      try {
        if (first.done) return;
        yield toLines(first.value);
        for (let next = await batches.next(); !next.done; next = await batches.next()) {
          await commitAudit(batchAudit(next.value));
          yield toLines(next.value);
        }
      } finally {
        await batches.return(undefined);
      }
    }
    return {
      contentType: "application/x-ndjson; charset=utf-8",
      contentDisposition: 'attachment; filename="players.ndjson"',
      total,
      lines,
    };
  },
});
