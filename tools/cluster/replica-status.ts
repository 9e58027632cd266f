/*
 * One look at the standby and its primary (replica:status, cluster:status): is the cluster there and running, is
 * its WAL receiver streaming, how many bytes of the primary's WAL it has not replayed yet, and (only when some are
 * pending) how old its last replayed commit is. The app's own router measures lag over time (platform/db/read-router.ts).
 */
import pg from "pg";
import {
  PRIMARY_LSN_SQL,
  parseLsn,
  receiverConnected,
  STANDBY_STATE_SQL,
  type StandbyStateRow,
} from "../../platform/db/replica-lag.ts";
import type { ReplicaSettings } from "./replica-settings.ts";

export interface ReplicaProbe {
  configured: boolean;
  cluster: string;
  port: number;
  /** absent (no cluster), unreachable, promoted (no longer in recovery), paused, not-streaming, streaming. */
  state: "absent" | "unreachable" | "promoted" | "paused" | "not-streaming" | "streaming";
  receiver?: string | null;
  primaryLsn?: string;
  replayLsn?: string | null;
  /** Bytes of WAL the primary has written and the standby has not replayed. */
  pendingBytes?: number | null;
  /** 0 when nothing is pending; else the age of the last replayed commit (an upper bound). */
  lagMs?: number | null;
  error?: string;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T | undefined> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 2_000,
    query_timeout: 3_000,
  });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows[0];
  } finally {
    await client.end().catch(() => undefined);
  }
}

function standbyState(row: StandbyStateRow): ReplicaProbe["state"] {
  if (!row.in_recovery) return "promoted";
  if (row.paused) return "paused";
  return receiverConnected(row.receiver) ? "streaming" : "not-streaming";
}

export async function probeReplica(settings: ReplicaSettings, clusterExists = true): Promise<ReplicaProbe> {
  const base = { configured: true, cluster: settings.cluster, port: settings.port };
  if (!clusterExists) return { ...base, state: "absent" };
  let row: (StandbyStateRow & { replay_age_ms: number | null }) | undefined;
  try {
    row = await query(
      settings.standbyUrl,
      `SELECT s.*, (extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000)::int AS replay_age_ms
       FROM (${STANDBY_STATE_SQL}) s`,
    );
  } catch (error) {
    return { ...base, state: "unreachable", error: (error as Error).message };
  }
  if (!row) return { ...base, state: "unreachable" };
  const probe: ReplicaProbe = {
    ...base,
    state: standbyState(row),
    receiver: row.receiver,
    replayLsn: row.replay_lsn,
  };
  try {
    const primary = await query<{ lsn: string }>(settings.primaryUrl, PRIMARY_LSN_SQL);
    if (primary && row.replay_lsn) {
      const pending = parseLsn(primary.lsn) - parseLsn(row.replay_lsn);
      probe.primaryLsn = primary.lsn;
      probe.pendingBytes = Number(pending > 0n ? pending : 0n);
      probe.lagMs = probe.pendingBytes === 0 ? 0 : row.replay_age_ms;
    }
  } catch (error) {
    probe.error = `primary: ${(error as Error).message}`;
  }
  return probe;
}
