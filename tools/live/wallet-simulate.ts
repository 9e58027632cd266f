/*
 * npm run wallet:simulate -- --rate N --players M [--duration S] [--prefix S] [--seed 24] [--out DIR]
 * Realistic wallet traffic into the stream WALLET at NATS_URL (default nats://127.0.0.1:4222), connecting with
 * NATS_CREDS, NATS_USER/NATS_PASSWORD or NATS_TOKEN and NATS_TLS_CA when set (the wallet's user): the players'
 * profiles first, then N events/s for S seconds (default: until Ctrl-C), then every pending settlement. --out
 * writes the final states as db:import's NDJSON files (players.ndjson, transactions.ndjson).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { natsAuthOptions, parseNatsAuth } from "@/workers/ingest/nats-auth";
import { ensureWalletStream } from "@/workers/ingest/wallet-stream";
import { Publisher, playersNdjson, transactionsNdjson } from "../../test/support/publisher.ts";
import { drive, settleAll } from "../../test/support/sim-driver.ts";
import { WalletSim } from "../../test/support/wallet-sim.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "50" },
    players: { type: "string", default: "20" },
    duration: { type: "string" },
    prefix: { type: "string", default: "S" },
    seed: { type: "string", default: "24" },
    out: { type: "string" },
  },
});
const rate = Number(values.rate);
const players = Number(values.players);
const duration = values.duration === undefined ? Number.POSITIVE_INFINITY : Number(values.duration) * 1000;
if (!(rate > 0) || !(players > 0) || !(duration > 0) || !/^[A-Z]{1,3}$/.test(values.prefix ?? "")) {
  console.error(
    "usage: npm run wallet:simulate -- --rate N --players M [--duration S] [--prefix LETTERS] [--out DIR]",
  );
  process.exit(2);
}

let auth: ReturnType<typeof parseNatsAuth>;
try {
  auth = parseNatsAuth(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const nc = await connect({
  servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
  maxReconnectAttempts: -1,
  ...natsAuthOptions(auth),
});
await ensureWalletStream(await jetstreamManager(nc));
const sim = new WalletSim({ players, prefix: values.prefix, seed: Number(values.seed) });
const publisher = new Publisher(nc, { onRetry: () => undefined });
const abort = new AbortController();
process.on("SIGINT", () => abort.abort());
process.on("SIGTERM", () => abort.abort());

await publisher.publishAll(sim.playerEvents());
await publisher.settle();
console.log(
  `wallet:simulate: ${players} players published; ${rate} events/s${Number.isFinite(duration) ? ` for ${duration / 1000} s` : " until Ctrl-C"}`,
);
const timer = setInterval(() => {
  console.log(`wallet:simulate: ${publisher.published} acknowledged, ${publisher.retries} retries`);
}, 5_000);
await drive(sim, publisher, { rate, durationMs: duration, signal: abort.signal });
await settleAll(sim, publisher);
clearInterval(timer);
console.log(
  `wallet:simulate: done: ${publisher.published} events acknowledged (${publisher.retries} retries), ${sim.finalTransactions.size} transactions`,
);
if (values.out) {
  mkdirSync(values.out, { recursive: true });
  writeFileSync(path.join(values.out, "players.ndjson"), playersNdjson(sim));
  writeFileSync(path.join(values.out, "transactions.ndjson"), transactionsNdjson(sim));
  console.log(
    `wallet:simulate: final states in ${values.out}/players.ndjson and transactions.ndjson (db:import's format)`,
  );
}
await nc.drain();
