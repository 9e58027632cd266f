import type pg from "pg";
import { retryDelayMs } from "./backoff.ts";
import type { DispatchConfig } from "./config.ts";
import { CLAIM_DELIVERY_SQL, RECORD_ATTEMPT_SQL, SETTLE_DELIVERY_SQL } from "./dispatch-sql.ts";
import { type AttemptOutcome, postWebhook } from "./post.ts";
import { checkWebhookUrl } from "./url.ts";

/*
 * npm run webhooks:dispatch (docs/webhooks.md): WEBHOOK_CONCURRENCY workers, each claiming one due delivery at a
 * time (dispatch-sql.ts), POSTing it signed, and recording the attempt; a failure is retried after an exponential
 * delay with jitter, up to WEBHOOK_MAX_ATTEMPTS, then the delivery is `failed` (replay starts it again). stop()
 * lets the deliveries in flight finish (each bounded by WEBHOOK_TIMEOUT_MS) and takes no new one.
 */

export interface DispatchLog {
  info(message: string, fields: Record<string, unknown>): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

export interface DispatcherStats {
  delivered: number;
  retried: number;
  failed: number;
}

export interface Dispatcher {
  stats: DispatcherStats;
  /** Finishes the deliveries in flight, then resolves. */
  stop(): Promise<void>;
  /** Settles when every worker has stopped. */
  done: Promise<void>;
}

export interface StartDispatcherOptions {
  config: DispatchConfig;
  log: DispatchLog;
}

interface Claimed {
  id: string;
  event_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
}

interface WorkerContext extends StartDispatcherOptions {
  pool: pg.Pool;
  stats: DispatcherStats;
  stopping: { value: boolean; wake: (() => void)[] };
}

export function startDispatcher(options: StartDispatcherOptions, pool: pg.Pool): Dispatcher {
  const stats: DispatcherStats = { delivered: 0, retried: 0, failed: 0 };
  const ctx: WorkerContext = { ...options, pool, stats, stopping: { value: false, wake: [] } };
  const workers = Array.from({ length: options.config.WEBHOOK_CONCURRENCY }, () => runWorker(ctx));
  const done = Promise.all(workers).then(() => undefined);
  return {
    stats,
    done,
    async stop() {
      ctx.stopping.value = true;
      for (const wake of ctx.stopping.wake.splice(0)) wake();
      await done;
    },
  };
}

async function runWorker(ctx: WorkerContext): Promise<void> {
  let backoffMs = 0;
  while (!ctx.stopping.value) {
    let worked = false;
    try {
      worked = await deliverOne(ctx);
      backoffMs = 0;
    } catch (error) {
      // The database is down or restarting: wait (up to 5 s) and try again; nothing was settled.
      backoffMs = Math.min(5_000, Math.max(250, backoffMs * 2));
      ctx.log.warn("webhooks: database error", { error: (error as Error).message });
    }
    if (!worked) await sleep(ctx, backoffMs || ctx.config.WEBHOOK_POLL_MS);
  }
}

function sleep(ctx: WorkerContext, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    ctx.stopping.wake.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Claims, sends and settles one due delivery; false when none was due. */
async function deliverOne(ctx: WorkerContext): Promise<boolean> {
  const client = await ctx.pool.connect();
  let release: Error | undefined;
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<Claimed>(CLAIM_DELIVERY_SQL);
    const claimed = rows[0];
    if (!claimed) {
      await client.query("COMMIT");
      return false;
    }
    const outcome = await attempt(ctx, claimed);
    await settle(ctx, client, claimed, outcome);
    await client.query("COMMIT");
    return true;
  } catch (error) {
    release = error as Error;
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    // A connection that failed mid-transaction is dropped rather than reused.
    client.release(release);
  }
}

async function attempt(ctx: WorkerContext, claimed: Claimed): Promise<AttemptOutcome & { refused?: true }> {
  const check = checkWebhookUrl(claimed.url);
  if (!check.ok)
    return { ok: false, statusCode: null, error: `refused: ${check.reason}`, latencyMs: 0, refused: true };
  return postWebhook({
    url: check.url.href,
    secret: claimed.secret,
    eventId: claimed.event_id,
    body: claimed.payload,
    timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
  });
}

async function settle(
  ctx: WorkerContext,
  client: pg.PoolClient,
  claimed: Claimed,
  outcome: AttemptOutcome & { refused?: true },
): Promise<void> {
  const attempts = claimed.attempts + 1;
  const { config, stats } = ctx;
  const giveUp = !outcome.ok && (outcome.refused || attempts >= config.WEBHOOK_MAX_ATTEMPTS);
  const status = outcome.ok ? "delivered" : giveUp ? "failed" : "pending";
  const next =
    status === "pending"
      ? new Date(
          Date.now() +
            retryDelayMs({
              attempt: attempts,
              baseMs: config.WEBHOOK_RETRY_BASE_MS,
              maxMs: config.WEBHOOK_RETRY_MAX_MS,
            }),
        )
      : null;
  await client.query(RECORD_ATTEMPT_SQL, [
    claimed.id,
    attempts,
    outcome.statusCode,
    outcome.latencyMs,
    outcome.error,
    next,
  ]);
  await client.query(SETTLE_DELIVERY_SQL, [
    claimed.id,
    status,
    attempts,
    next,
    outcome.statusCode,
    outcome.error,
  ]);
  if (status === "delivered") stats.delivered += 1;
  else if (status === "failed") stats.failed += 1;
  else stats.retried += 1;
  if (status !== "delivered")
    ctx.log.warn(`webhooks: delivery ${status === "failed" ? "failed" : "will be retried"}`, {
      delivery: claimed.id,
      event: claimed.event_id,
      attempt: attempts,
      statusCode: outcome.statusCode,
      error: outcome.error,
      nextAttemptAt: next?.toISOString() ?? null,
    });
}
