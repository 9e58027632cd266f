/*
 * How far a hot standby is behind its primary, by write-ahead-log positions (LSNs), not by the standby's replay
 * timestamp alone: an idle primary writes no commits, so `now() - pg_last_xact_replay_timestamp()` grows without
 * bound (29 s was seen) on a standby that has replayed everything. "Nothing pending" (the standby has replayed the
 * primary's current position) is zero lag; otherwise the lag is how long ago the oldest primary position the
 * standby has not yet replayed was first seen (`LagTracker`), measured by the poller's own clock.
 */

/** The primary's current position. */
export const PRIMARY_LSN_SQL = "SELECT pg_current_wal_lsn()::text AS lsn";

/** The standby's state: in recovery, its WAL receiver's status, what it has replayed, whether replay is paused. */
export const STANDBY_STATE_SQL = `SELECT pg_is_in_recovery() AS in_recovery,
  pg_last_wal_replay_lsn()::text AS replay_lsn,
  CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END AS paused,
  (SELECT coalesce(status, CASE WHEN pid IS NOT NULL THEN 'running' END) FROM pg_stat_wal_receiver LIMIT 1)
    AS receiver`;

/**
 * Whether the standby's WAL receiver is connected to its primary: `streaming`, or `running` for a role that may
 * not see the receiver's status (only members of pg_read_all_stats do; the others see that it runs).
 */
export function receiverConnected(receiver: string | null): boolean {
  return receiver === "streaming" || receiver === "running";
}

export interface StandbyStateRow {
  in_recovery: boolean;
  replay_lsn: string | null;
  paused: boolean;
  receiver: string | null;
}

/** "16/B374D848" → its byte position. */
export function parseLsn(lsn: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn.trim());
  if (!match) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

/** Primary positions the standby had not replayed when seen, oldest first; at most this many kept. */
const MAX_SAMPLES = 1_000;

/**
 * Lag in milliseconds from successive (primary position, standby replay position) observations: 0 when the
 * standby has replayed the primary's position; else the age of the oldest primary position it has not replayed
 * yet. Precision: the polling interval (a position written just after a poll is first seen at the next).
 */
export class LagTracker {
  private pending: { lsn: bigint; at: number }[] = [];

  observe(options: { primaryLsn: bigint; replayLsn: bigint; now: number }): number {
    const { primaryLsn, replayLsn, now } = options;
    this.pending = this.pending.filter((s) => s.lsn > replayLsn);
    if (primaryLsn <= replayLsn) {
      this.pending = [];
      return 0;
    }
    const newest = this.pending.at(-1);
    if (!newest || newest.lsn < primaryLsn) this.pending.push({ lsn: primaryLsn, at: now });
    if (this.pending.length > MAX_SAMPLES) this.pending.splice(1, this.pending.length - MAX_SAMPLES);
    return now - (this.pending[0]?.at ?? now);
  }

  reset(): void {
    this.pending = [];
  }
}
