import "server-only";
import pg from "pg";
import { getEnv } from "@/platform/env/env";
import { describeError, log } from "@/platform/log/log";
import { getPrisma, getReplicaPrisma } from "./client.ts";
import type { PrismaClient } from "./generated/client.ts";
import {
  LagTracker,
  PRIMARY_LSN_SQL,
  parseLsn,
  receiverConnected,
  STANDBY_STATE_SQL,
  type StandbyStateRow,
} from "./replica-lag.ts";
import { errorChain, isDatabaseUnavailable } from "./unavailable.ts";

/*
 * Where a read of player data runs: on the hot standby (DATABASE_REPLICA_URL) while it is connected to its primary
 * and its replay is within REPLICA_MAX_LAG_MS, else on the primary. A background poller (every POLL_INTERVAL_MS,
 * never per request) compares the primary's pg_current_wal_lsn() with the standby's pg_last_wal_replay_lsn()
 * (replica-lag.ts); a read that fails on the standby with a connection error is run once more on the primary, and
 * the standby is left until the next poll finds it well. Audit writes and reads, sessions and the health check
 * use the primary's client directly: only what goes through `routeRead` may reach the standby.
 */

export type ReplicaState =
  | "not-configured"
  | "unknown"
  | "streaming"
  | "lagging"
  | "paused"
  | "not-streaming"
  | "promoted"
  | "unreachable"
  | "primary-unreachable";

export interface ReadRouting {
  configured: boolean;
  /** Where reads of player data go now. */
  reads: "primary" | "replica";
  state: ReplicaState;
  /** The standby's replay lag by LSN (0: nothing pending); null when it could not be measured. */
  lagMs: number | null;
  maxLagMs: number;
  checkedAt: string | null;
  /** Reads that failed on the standby and were answered by the primary, since the process started. */
  fallbacks: number;
}

/** How often the standby's state and lag are polled: a standby that returns gets reads again within ~this. */
export const POLL_INTERVAL_MS = 250;

function probePool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: 1,
    connectionTimeoutMillis: 1_000,
    query_timeout: 1_000,
    statement_timeout: 1_000,
    application_name: "par-replica-monitor",
  });
  pool.on("error", () => undefined); // a lost idle probe connection: the next poll reconnects
  return pool;
}

class ReplicaMonitor {
  private routing: ReadRouting;
  private readonly tracker = new LagTracker();
  private readonly primary: pg.Pool;
  private readonly standby: pg.Pool;

  constructor(primaryUrl: string, standbyUrl: string, maxLagMs: number) {
    this.primary = probePool(primaryUrl);
    this.standby = probePool(standbyUrl);
    this.routing = {
      configured: true,
      reads: "primary",
      state: "unknown",
      lagMs: null,
      maxLagMs,
      checkedAt: null,
      fallbacks: 0,
    };
  }

  start(): void {
    const tick = async () => {
      try {
        await this.poll();
      } catch (error) {
        this.update({ reads: "primary", state: "unknown", lagMs: null }, describeError(error));
      }
      setTimeout(tick, POLL_INTERVAL_MS).unref();
    };
    void tick();
  }

  current(): ReadRouting {
    return this.routing;
  }

  standbyFailed(error: unknown): void {
    this.tracker.reset();
    this.routing = { ...this.routing, fallbacks: this.routing.fallbacks + 1 };
    this.update({ reads: "primary", state: "unreachable", lagMs: null }, describeError(error));
  }

  private async poll(): Promise<void> {
    let primaryLsn: bigint;
    try {
      const { rows } = await this.primary.query<{ lsn: string }>(PRIMARY_LSN_SQL);
      primaryLsn = parseLsn(rows[0]?.lsn ?? "");
    } catch (error) {
      this.update({ reads: "primary", state: "primary-unreachable", lagMs: null }, describeError(error));
      return;
    }
    let row: StandbyStateRow | undefined;
    try {
      row = (await this.standby.query<StandbyStateRow>(STANDBY_STATE_SQL)).rows[0];
    } catch (error) {
      this.tracker.reset();
      this.update({ reads: "primary", state: "unreachable", lagMs: null }, describeError(error));
      return;
    }
    this.update(this.judge(row, primaryLsn));
  }

  /** The standby's row and the primary's position → where reads go. A promoted standby is never read from. */
  private judge(row: StandbyStateRow | undefined, primaryLsn: bigint): Partial<ReadRouting> {
    if (!row?.in_recovery) return { reads: "primary", state: "promoted", lagMs: null };
    if (!row.replay_lsn) return { reads: "primary", state: "not-streaming", lagMs: null };
    const lagMs = this.tracker.observe({ primaryLsn, replayLsn: parseLsn(row.replay_lsn), now: Date.now() });
    const connected = receiverConnected(row.receiver);
    const within = lagMs <= this.routing.maxLagMs;
    let state: ReplicaState = "streaming";
    if (!within) state = row.paused ? "paused" : "lagging";
    else if (!connected) state = "not-streaming";
    else if (row.paused) state = "paused";
    return { reads: connected && within ? "replica" : "primary", state, lagMs };
  }

  private update(next: Partial<ReadRouting>, error?: Record<string, unknown>): void {
    const before = this.routing;
    this.routing = { ...before, ...next, checkedAt: new Date().toISOString() };
    if (before.reads !== this.routing.reads || before.state !== this.routing.state) {
      log.info("read routing changed", {
        reads: this.routing.reads,
        state: this.routing.state,
        lag_ms: this.routing.lagMs,
        ...(error ? { error } : {}),
      });
    }
  }
}

const globalForRouter = globalThis as unknown as { replicaMonitor?: ReplicaMonitor | null };

/** The process's one monitor, started at first use; null without DATABASE_REPLICA_URL. */
function getReplicaMonitor(): ReplicaMonitor | null {
  if (globalForRouter.replicaMonitor === undefined) {
    const env = getEnv();
    if (env.DATABASE_REPLICA_URL && env.DATABASE_URL) {
      const monitor = new ReplicaMonitor(env.DATABASE_URL, env.DATABASE_REPLICA_URL, env.REPLICA_MAX_LAG_MS);
      monitor.start();
      globalForRouter.replicaMonitor = monitor;
    } else {
      globalForRouter.replicaMonitor = null;
    }
  }
  return globalForRouter.replicaMonitor;
}

/** Where reads go now, for /api/health (starts the monitor). */
export function getReadRouting(): ReadRouting {
  const monitor = getReplicaMonitor();
  if (monitor) return monitor.current();
  return {
    configured: false,
    reads: "primary",
    state: "not-configured",
    lagMs: null,
    maxLagMs: getEnv().REPLICA_MAX_LAG_MS,
    checkedAt: null,
    fallbacks: 0,
  };
}

/** Every code and message along an error's causes (Prisma wraps the driver's error). */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (const e of errorChain(error)) {
    for (const value of [e.code, e.originalCode, e.message]) if (typeof value === "string") parts.push(value);
  }
  return parts.join(" ");
}

/**
 * A connection-level failure of the standby (down, restarting, refused, reset) or a query it cancelled to replay
 * WAL (40001, conflict with recovery): worth once more on the primary. A statement timeout is not: the primary
 * would take as long.
 */
export function isStandbyFailure(error: unknown): boolean {
  const text = errorText(error);
  if (/57014|statement timeout/i.test(text)) return false;
  return isDatabaseUnavailable(error) || /40001|conflict with recovery/i.test(text);
}

/**
 * Runs a read of player data on the client the router chooses: the standby while it streams within the lag bound,
 * else the primary; a standby's connection failure is retried once on the primary.
 */
export async function routeRead<T>(read: (db: PrismaClient) => Promise<T>): Promise<T> {
  const monitor = getReplicaMonitor();
  const replica = monitor?.current().reads === "replica" ? getReplicaPrisma() : null;
  if (!monitor || !replica) return read(getPrisma());
  try {
    return await read(replica);
  } catch (error) {
    if (!isStandbyFailure(error)) throw error;
    monitor.standbyFailed(error);
    return read(getPrisma());
  }
}
