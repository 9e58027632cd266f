import { hasScope, SCOPES } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { AuditedRead } from "@/lib/http/api-context";
import { readRoute } from "@/lib/http/api-handler";
import { acquireExportSlot } from "@/lib/http/export-gate";
import { exportEncoding, sendContentEncoding, TOTAL_COUNT_HEADER } from "@/lib/http/gzip-stream";
import { stringifyJson } from "@/lib/http/json";
import { invalidParameters } from "@/lib/http/problem";
import { parseQuery } from "@/lib/http/query";
import { closeConnection } from "@/lib/http/request-stamp.mjs";
import { streamResponse } from "@/lib/http/stream-response";
import { assertPlayerExists } from "@/lib/players/assert-player-exists";
import { countPlayerProfiles } from "@/lib/players/count-player-profiles";
import { maskProfileContact } from "@/lib/players/mask-contact";
import { streamPlayerProfiles } from "@/lib/players/stream-player-profiles";
import { type PlayerProfile, playerExportQuerySchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

/** `after=` must name a player (the position to resume from); a 400 naming `after` otherwise. */
async function checkAfter(after: string | undefined): Promise<void> {
  if (after === undefined) return;
  try {
    await assertPlayerExists({ playerId: after });
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
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(async function playersExportRoute(ctx) {
  const { request, url, principal, commitAudit, requestId, caller } = ctx;
  const { manager, after } = parseQuery(playerExportQuerySchema, url.searchParams);
  const release = await acquireExportSlot(caller);
  const batches = streamPlayerProfiles({ manager, after });
  let first: IteratorResult<PlayerProfile[]>;
  let total: number;
  try {
    await checkAfter(after);
    total = await countPlayerProfiles({ manager });
    first = request.method === "HEAD" ? { done: true, value: undefined } : await batches.next();
    // Committed here, not declared: nothing may fail after the gzip header is on the response (below).
    await commitAudit(batchAudit(first.done ? [] : first.value));
  } catch (error) {
    release();
    throw error;
  }
  const encoding = exportEncoding(request);
  const headers = {
    ...encoding.headers,
    "Content-Type": "application/x-ndjson; charset=utf-8",
    "Content-Disposition": 'attachment; filename="players.ndjson"',
    [TOTAL_COUNT_HEADER]: String(total),
  };
  sendContentEncoding(request, encoding);
  if (request.method === "HEAD") {
    release();
    return new Response(null, { status: 200, headers });
  }
  const pii = hasScope(principal, SCOPES.playersPii);
  const toLines = (profiles: PlayerProfile[]) =>
    profiles.map((p) => `${stringifyJson(pii ? p : maskProfileContact(p))}\n`).join("");
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
  return streamResponse(lines(), {
    requestId,
    route: url.pathname,
    onDone: release,
    idleTimeoutMs: getEnv().EXPORT_IDLE_TIMEOUT_MS,
    onIdle: () => closeConnection(request.headers),
    headers,
    gzip: encoding.gzip,
  });
});
