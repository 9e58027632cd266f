import type pg from "pg";
import type { DispatchConfig } from "./config.ts";
import {
  CLAIM_DELIVERY_SQL,
  CLEAR_ENDPOINT_FAILING_SQL,
  MARK_ENDPOINT_FAILING_SQL,
  RECORD_ATTEMPT_SQL,
  SETTLE_DELIVERY_SQL,
} from "./dispatch-sql.ts";
import { type AttemptOutcome, postWebhook } from "./post.ts";
import { nextStep } from "./retry.ts";
import { checkWebhookUrl } from "./url.ts";

/*
 * npm run webhooks:dispatch (docs/webhooks.md): WEBHOOK_CONCURRENCY workers, each claiming one due delivery at a
 * time (dispatch-sql.ts), POSTing it signed, and recording the attempt; a failure is retried after an exponential
 * delay with jitter for WEBHOOK_RETRY_WINDOW_MS (retry.ts), then the delivery is `failed` (replay starts it again)
 * and its endpoint marked failing, logged once. stop() lets the deliveries in flight finish (each bounded by
 * WEBHOOK_TIMEOUT_MS) and takes no new one.
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
  /** The clock: which deliveries are due, and when the next attempt is (a test moves it; default: now). */
  now?: () => Date;
}

interface Claimed {
  id: string;
  event_id: string;
  endpoint_id: string;
  payload: string;
  attempts: number;
  retry_started_at: Date | null;
  url: string;
  secret: string;
  previous_secret: string | null;
}

interface WorkerContext extends StartDispatcherOptions {
  pool: pg.Pool;
  clock: () => Date;
  stats: DispatcherStats;
  stopping: { value: boolean; wake: (() => void)[] };
}

export function startDispatcher(options: StartDispatcherOptions, pool: pg.Pool): Dispatcher {
  const stats: DispatcherStats = { delivered: 0, retried: 0, failed: 0 };
  const ctx: WorkerContext = {
    ...options,
    pool,
    clock: options.now ?? (() => new Date()),
    stats,
    stopping: { value: false, wake: [] },
  };
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
    const { rows } = await client.query<Claimed>(CLAIM_DELIVERY_SQL, [ctx.clock()]);
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
    previousSecret: claimed.previous_secret,
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
  const now = ctx.clock();
  const { status, nextAttemptAt: next } = nextStep({
    policy: config,
    ok: outcome.ok,
    refused: outcome.refused,
    attempts,
    retryStartedAt: claimed.retry_started_at ?? now,
    now,
  });
  await client.query(RECORD_ATTEMPT_SQL, [
    claimed.id,
    attempts,
    outcome.statusCode,
    outcome.latencyMs,
    outcome.error,
    next,
    now,
  ]);
  await client.query(SETTLE_DELIVERY_SQL, [
    claimed.id,
    status,
    attempts,
    next,
    outcome.statusCode,
    outcome.error,
    now,
  ]);
  if (status === "delivered") {
    stats.delivered += 1;
    const cleared = await client.query(CLEAR_ENDPOINT_FAILING_SQL, [claimed.endpoint_id]);
    if (cleared.rowCount) ctx.log.info("webhooks: endpoint recovered", { endpoint: claimed.endpoint_id });
    return;
  }
  if (status === "failed") stats.failed += 1;
  else stats.retried += 1;
  ctx.log.warn(`webhooks: delivery ${status === "failed" ? "failed" : "will be retried"}`, {
    delivery: claimed.id,
    event: claimed.event_id,
    attempt: attempts,
    statusCode: outcome.statusCode,
    error: outcome.error,
    nextAttemptAt: next?.toISOString() ?? null,
  });
  if (status !== "failed") return;
  // The operator is told once per episode: the log here, and /api/health/ingest while it lasts.
  const marked = await client.query(MARK_ENDPOINT_FAILING_SQL, [claimed.endpoint_id, now]);
  if (marked.rowCount)
    ctx.log.warn("webhooks: endpoint failing", {
      endpoint: claimed.endpoint_id,
      delivery: claimed.id,
      attempts,
      since: now.toISOString(),
    });
}
