import type { ClientBase } from "pg";

/*
 * A version far past the stored one is refused before the batch picks each record's highest version: the read
 * model keeps the highest version it has seen, so one forged `2147483647` would freeze the record (every real
 * later version "older") and, picked as the batch's highest, would even pass over the real one beside it.
 */

/** The stored versions of the batch's records ($1 player ids, $2 transaction ids). */
export const STORED_VERSIONS_SQL = `
SELECT 'player' AS kind, id, version FROM players WHERE id = ANY($1::text[])
UNION ALL
SELECT 'transaction' AS kind, id, version FROM transactions WHERE id = ANY($2::text[])`;

export interface VersionedEvent {
  kind: "player" | "transaction";
  event: { id: string; version: number };
}

export interface FindVersionJumpsOptions<T extends VersionedEvent> {
  events: T[];
  /** How far past the stored version (0 when none is stored) a version may be. */
  maxJump: number;
}

/**
 * The events whose version is more than `maxJump` past their record's stored version, each with the reason it
 * goes to wallet.dead. Run inside the batch's transaction, after its lock (the stored versions cannot move).
 */
export async function findVersionJumps<T extends VersionedEvent>(
  options: FindVersionJumpsOptions<T>,
  client: ClientBase,
): Promise<Map<T, string>> {
  const { events, maxJump } = options;
  const jumps = new Map<T, string>();
  if (!events.length) return jumps;
  const ids = (kind: VersionedEvent["kind"]) => [
    ...new Set(events.filter((e) => e.kind === kind).map((e) => e.event.id)),
  ];
  const { rows } = await client.query<{ kind: string; id: string; version: number }>(STORED_VERSIONS_SQL, [
    ids("player"),
    ids("transaction"),
  ]);
  const stored = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r.version]));
  for (const e of events) {
    const held = stored.get(`${e.kind}:${e.event.id}`) ?? 0;
    if (e.event.version - held > maxJump) {
      jumps.set(
        e,
        `version ${e.event.version} is more than ${maxJump} past the stored version ${held} of ${e.kind} ${e.event.id}`,
      );
    }
  }
  return jumps;
}
