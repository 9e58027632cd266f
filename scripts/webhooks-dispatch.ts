/*
 * npm run webhooks:dispatch: delivers the webhook outbox (lib/webhooks/dispatcher.ts, docs/webhooks.md) until
 * SIGTERM or SIGINT, which let the deliveries in flight finish (each bounded by WEBHOOK_TIMEOUT_MS) and exit 0.
 * Several processes may run against one database: claims use FOR UPDATE SKIP LOCKED.
 */
import { createPgPool } from "../lib/db/pg-pool.ts";
import { log } from "../lib/log.ts";
import { parseDispatchConfig } from "../lib/webhooks/config.ts";
import { startDispatcher } from "../lib/webhooks/dispatcher.ts";

function main(): void {
  let config: ReturnType<typeof parseDispatchConfig>;
  try {
    config = parseDispatchConfig(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const pool = createPgPool(config.DATABASE_URL, {
    max: config.WEBHOOK_CONCURRENCY + 1,
    applicationName: "webhooks:dispatch",
    onError: (error) => log.warn("webhooks: database connection lost", { error: error.message }),
  });
  const dispatcher = startDispatcher({ config, log }, pool);
  log.info("webhooks: dispatching", {
    concurrency: config.WEBHOOK_CONCURRENCY,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`webhooks: ${signal}: finishing the deliveries in flight`, {});
    void (async () => {
      await dispatcher.stop();
      await pool.end().catch(() => undefined);
      log.info("webhooks: stopped", { ...dispatcher.stats });
      process.exit(0);
    })();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main();
