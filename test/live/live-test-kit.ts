import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { type ConnectionOptions, connect, type NatsConnection } from "@nats-io/transport-node";
import type pg from "pg";
import { DEAD_STREAM, WALLET_SUBJECTS } from "@/features/live/schema/wallet-events";
import { parseIngestConfig } from "@/workers/ingest/config";
import { type IngestLog, startIngest } from "@/workers/ingest/consumer";
import { natsAuthOptions } from "@/workers/ingest/nats-auth";
import { ensureWalletStream } from "@/workers/ingest/wallet-stream";
import { Publisher, type PublisherOptions } from "../support/publisher.ts";
import type { SimTransaction, WalletSim } from "../support/wallet-sim.ts";

/*
 * What the live tests and the bench share: the ingest in-process, a publisher on its own connection, the expected
 * final figures of a simulation, waiting until the read model holds them, and reading wallet.dead.
 */

/** A logger that says nothing, for the consumer and the dispatcher run in-process. */
export const quietLog: IngestLog = { info: () => undefined, warn: () => undefined };

/**
 * The ingest consuming in-process on a connection of its own (ack wait 2 s, `env` over it, its NATS_* credentials
 * used); stop() ends both. `log` to see what it says.
 */
export async function startQuietIngest(
  natsUrl: string,
  databaseUrl: string,
  pool: pg.Pool,
  env: Record<string, string> = {},
  log: IngestLog = quietLog,
): Promise<{ stop(): Promise<void> }> {
  const config = parseIngestConfig({
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    INGEST_ACK_WAIT_MS: "2000",
    ...env,
  });
  const nc = await connect({ servers: natsUrl, ...natsAuthOptions(config) });
  const runner = await startIngest({ nc, pool, config, log });
  return {
    async stop() {
      await runner.stop();
      await nc.close();
    },
  };
}

/** The wallet's side: a publisher on its own connection (`auth`: e.g. `{ user, pass }` on a server with accounts). */
export async function connectPublisher(
  url: string,
  options?: PublisherOptions,
  auth: Pick<ConnectionOptions, "user" | "pass"> = {},
): Promise<{ nc: NatsConnection; publisher: Publisher }> {
  const nc = await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 100, ...auth });
  await ensureWalletStream(await jetstreamManager(nc));
  return { nc, publisher: new Publisher(nc, options) };
}

export interface ExpectedTotals {
  transactions: number;
  versions: number;
  byStatus: Record<string, number>;
}

export function expectedTotals(sim: WalletSim): ExpectedTotals {
  const byStatus: Record<string, number> = {};
  let versions = 0;
  for (const t of sim.finalTransactions.values() as Iterable<SimTransaction>) {
    byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
    versions += t.version;
  }
  return { transactions: sim.finalTransactions.size, versions, byStatus };
}

/** The read model's figures for the simulated players (prefix). */
export async function readTotals(client: pg.ClientBase, prefix: string): Promise<ExpectedTotals> {
  const { rows } = await client.query<{ status: string; n: number; versions: number }>(
    `SELECT status::text, count(*)::int AS n, sum(version)::int AS versions FROM transactions
     WHERE player_id LIKE $1 || '%' GROUP BY status`,
    [prefix],
  );
  const byStatus: Record<string, number> = {};
  let transactions = 0;
  let versions = 0;
  for (const r of rows) {
    byStatus[r.status] = r.n;
    transactions += r.n;
    versions += r.versions;
  }
  return { transactions, versions, byStatus };
}

/** Polls until the read model holds every final state (or the time is up); returns the last reading. */
export async function waitForTotals(
  read: () => Promise<ExpectedTotals>,
  expected: ExpectedTotals,
  timeoutMs: number,
): Promise<ExpectedTotals> {
  const until = Date.now() + timeoutMs;
  let last = await read().catch(() => ({ transactions: -1, versions: -1, byStatus: {} }));
  while (
    Date.now() < until &&
    (last.transactions !== expected.transactions || last.versions !== expected.versions)
  ) {
    await new Promise((r) => setTimeout(r, 200));
    last = await read().catch(() => last);
  }
  return last;
}

export interface DeadLetter {
  reason: string;
  subject: string;
  data: string;
}

/** Every message on wallet.dead so far (an ephemeral consumer of its stream); none while it does not exist. */
export async function readDeadLetters(nc: NatsConnection): Promise<DeadLetter[]> {
  const jsm = await jetstreamManager(nc);
  const out: DeadLetter[] = [];
  const info = await jsm.streams.info(DEAD_STREAM).catch(() => null);
  if (!info) return out;
  const js = jetstream(nc);
  const ci = await jsm.consumers.add(DEAD_STREAM, {
    filter_subject: WALLET_SUBJECTS.dead,
    inactive_threshold: 30_000_000_000,
  });
  const consumer = await js.consumers.get(DEAD_STREAM, ci.name);
  const total = ci.num_pending;
  if (total === 0 || info.state.messages === 0) return out;
  const batch = await consumer.fetch({ max_messages: total, expires: 2_000 });
  for await (const m of batch) {
    out.push({
      reason: m.headers?.get("Reason") ?? "",
      subject: m.headers?.get("Original-Subject") ?? "",
      data: new TextDecoder().decode(m.data),
    });
    if (out.length >= total) break;
  }
  return out;
}
