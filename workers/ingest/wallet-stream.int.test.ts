import { jetstream, jetstreamManager, StorageType } from "@nats-io/jetstream";
import { connect, type NatsConnection, nanos } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEAD_STREAM, WALLET_STREAM } from "@/features/live/schema/wallet-events";
import { createNatsServer, type NatsServer, natsServerAvailable } from "@/test/support/nats-server";
import { ensureDeadLetterStream, ensureWalletStream } from "./wallet-stream.ts";

// The streams' layout at a real NATS, from scratch and from the earlier one (wallet.dead inside WALLET).
const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 35;
const DAY_MS = 86_400_000;

describe.runIf(natsServerAvailable())("the wallet's streams", () => {
  let nats: NatsServer;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = createNatsServer(PORT);
    await nats.start();
    nc = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await nc?.close();
    await nats?.destroy();
  });

  it("moves wallet.dead out of an earlier WALLET into WALLET_DEAD, whose dead letters expire", async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({
      name: WALLET_STREAM,
      subjects: ["wallet.transaction", "wallet.player", "wallet.dead"],
      storage: StorageType.File,
    });
    await jetstream(nc).publish("wallet.dead", "an old dead letter");
    await ensureWalletStream(jsm);
    await ensureDeadLetterStream(jsm, 14 * DAY_MS);
    const wallet = await jsm.streams.info(WALLET_STREAM);
    expect(wallet.config.subjects).toEqual(["wallet.transaction", "wallet.player"]);
    expect(wallet.config.max_age).toBe(0); // the wallet's events are kept
    expect(wallet.state.messages).toBe(1); // the old dead letter stays until an operator purges it
    const dead = await jsm.streams.info(DEAD_STREAM);
    expect(dead.config.subjects).toEqual(["wallet.dead"]);
    expect(dead.config.max_age).toBe(nanos(14 * DAY_MS));
    const ack = await jetstream(nc).publish("wallet.dead", "a new one");
    expect(ack.stream).toBe(DEAD_STREAM);

    // A changed retention is applied at the next start; the layout is left as it is.
    await ensureWalletStream(jsm);
    await ensureDeadLetterStream(jsm, 2 * DAY_MS);
    expect((await jsm.streams.info(DEAD_STREAM)).config.max_age).toBe(nanos(2 * DAY_MS));
    expect((await jsm.streams.info(WALLET_STREAM)).config.subjects).toEqual([
      "wallet.transaction",
      "wallet.player",
    ]);
  });
});
