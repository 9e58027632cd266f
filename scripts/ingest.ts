/*
 * npm run ingest: applies the wallet's events (NATS JetStream stream WALLET) to the read model, until SIGTERM or
 * SIGINT, which finish the batch in hand and exit 0. Settings: docs/configuration.md (DATABASE_URL, NATS_URL,
 * INGEST_*); the contract: docs/live-data.md.
 */
import { connect } from "@nats-io/transport-node";
import { createPgPool } from "../lib/db/pg-pool.ts";
import { parseIngestConfig } from "../lib/ingest/config.ts";
import { startIngest } from "../lib/ingest/consumer.ts";
import { log } from "../lib/log.ts";

async function main(): Promise<void> {
  let config: ReturnType<typeof parseIngestConfig>;
  try {
    config = parseIngestConfig(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const pool = createPgPool(config.DATABASE_URL, {
    statementTimeoutMs: config.INGEST_STATEMENT_TIMEOUT_MS,
    applicationName: `ingest:${config.INGEST_CONSUMER}`,
    onError: (error) => log.warn("ingest: database connection lost", { error: error.message }),
  });
  const nc = await connect({
    servers: config.NATS_URL,
    name: `ingest:${config.INGEST_CONSUMER}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // A broker that is not up yet is waited for, as one that goes away later is.
    waitOnFirstConnect: true,
  });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnect") log.warn(`ingest: NATS ${s.type}`, {});
    }
  })();
  const runner = await startIngest({ nc, pool, config, log });
  log.info("ingest: consuming", {
    nats: config.NATS_URL,
    consumer: config.INGEST_CONSUMER,
    batchSize: config.INGEST_BATCH_SIZE,
    ackWaitMs: config.INGEST_ACK_WAIT_MS,
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`ingest: ${signal}: finishing the batch in hand`, {});
    void (async () => {
      await runner.stop();
      await nc.drain().catch(() => undefined);
      await pool.end().catch(() => undefined);
      log.info("ingest: stopped", { ...runner.stats });
      process.exit(0);
    })();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  await runner.done.catch((error: unknown) => {
    log.error("ingest: stopped on an error", { error: String(error) });
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  log.error("ingest: could not start", { error: String(error) });
  process.exit(1);
});
