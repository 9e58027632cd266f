/*
 * npm run webhooks:dispatch: delivers the webhook outbox (workers/webhooks/dispatcher.ts, docs/webhooks.md) until
 * SIGTERM or SIGINT, which let the deliveries in flight finish (each bounded by WEBHOOK_TIMEOUT_MS) and exit 0.
 * Several processes may run against one database: claims use FOR UPDATE SKIP LOCKED.
 */
import { createPgPool } from "../../platform/db/pg-pool.ts";
import { settingsOrExit, stopOnSignal } from "../../platform/env/script-env.ts";
import { log } from "../../platform/log/log.ts";
import { parseDispatchConfig } from "./config.ts";
import { startDispatcher } from "./dispatcher.ts";

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
