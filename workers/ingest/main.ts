/*
 * npm run ingest: applies the wallet's events (NATS JetStream stream WALLET) to the read model, until SIGTERM or
 * SIGINT, which finish the batch in hand and exit 0. Settings: docs/configuration.md (DATABASE_URL, NATS_URL,
 * NATS_CREDS / NATS_USER / NATS_TOKEN, NATS_TLS_CA, INGEST_*); the contract: docs/live-data.md. Refuses to start
 * (exit 2) on a NATS server that lets anonymous clients in, unless NATS_ALLOW_ANONYMOUS=on (workers/ingest/nats-auth.ts).
 */
import { connect } from "@nats-io/transport-node";
import { createPgPool } from "../../platform/db/pg-pool.ts";
import { settingsOrExit, stopOnSignal } from "../../platform/env/script-env.ts";
import { log } from "../../platform/log/log.ts";
import { parseIngestConfig } from "./config.ts";
import { startIngest } from "./consumer.ts";
import { checkNatsAccess, hasNatsCredentials, type NatsAccess, natsAuthOptions } from "./nats-auth.ts";

/** Fail closed: the same posture as the web server's on a privileged database role. */
function refuseOrWarn(access: NatsAccess): void {
  if (!access.ok) {
    log.error(`ingest: refusing to start: ${access.reason}`, {});
    process.exit(2);
  }
  if (access.warning) log.warn(`ingest: ${access.warning}`, {});
}

async function main(): Promise<void> {
  const config = settingsOrExit(parseIngestConfig);
  // Without credentials there is nothing to connect with: decided before waiting for the server.
  if (!hasNatsCredentials(config)) refuseOrWarn(await checkNatsAccess(config.NATS_URL, config));
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
    ...natsAuthOptions(config),
  });
  if (hasNatsCredentials(config)) refuseOrWarn(await checkNatsAccess(config.NATS_URL, config));
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
  stopOnSignal("ingest", "finishing the batch in hand", async () => {
    await runner.stop();
    await nc.drain().catch(() => undefined);
    await pool.end().catch(() => undefined);
    return { ...runner.stats };
  });
  await runner.done.catch((error: unknown) => {
    log.error("ingest: stopped on an error", { error: String(error) });
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  log.error("ingest: could not start", { error: String(error) });
  process.exit(1);
});
