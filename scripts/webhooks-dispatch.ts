/*
 * npm run webhooks:dispatch: delivers the webhook outbox (lib/webhooks/dispatcher.ts, docs/webhooks.md) until
 * SIGTERM or SIGINT, which let the deliveries in flight finish (each bounded by WEBHOOK_TIMEOUT_MS) and exit 0.
 * Several processes may run against one database: claims use FOR UPDATE SKIP LOCKED.
 */
import { createPgPool } from "../lib/db/pg-pool.ts";
import { log } from "../lib/log.ts";
import { parseDispatchConfig } from "../lib/webhooks/config.ts";
import { startDispatcher } from "../lib/webhooks/dispatcher.ts";
import { settingsOrExit, stopOnSignal } from "./script-env.ts";

function main(): void {
  const config = settingsOrExit(parseDispatchConfig);
  const pool = createPgPool(config.DATABASE_URL, {
    max: config.WEBHOOK_CONCURRENCY + 1,
    applicationName: "webhooks:dispatch",
    onError: (error) => log.warn("webhooks: database connection lost", { error: error.message }),
  });
  const dispatcher = startDispatcher({ config, log }, pool);
  log.info("webhooks: dispatching", {
    concurrency: config.WEBHOOK_CONCURRENCY,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryWindowMs: config.WEBHOOK_RETRY_WINDOW_MS,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS ?? null,
  });
  stopOnSignal("webhooks", "finishing the deliveries in flight", async () => {
    await dispatcher.stop();
    await pool.end().catch(() => undefined);
    return { ...dispatcher.stats };
  });
}

main();
