import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { AuthorizationError, connect, type NatsConnection } from "@nats-io/transport-node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { WALLET_STREAM } from "@/features/live/schema/wallet-events";
import { createPrismaClient } from "@/platform/db/client";
import { resetEnvCache } from "@/platform/env/env";
import { getIngestStatus } from "@/workers/ingest/ingest-status";
import { freshTestDatabase } from "../support/fresh-test-database.ts";
import { createNatsServer, type NatsServer, natsServerAvailable } from "../support/nats-server.ts";
import { WalletSim } from "../support/wallet-sim.ts";
import { connectPublisher, readDeadLetters } from "./live-test-kit.ts";
import { type ScriptProcess, startScriptProcess } from "./script-process.ts";

/*
 * Who may reach the wallet's stream. `npm run ingest` refuses to start where anyone could publish wallet events
 * (no credentials, or a server that lets an anonymous client in) unless told NATS_ALLOW_ANONYMOUS=on; with the
 * accounts of docs/live-data.md (the same text below) the consumer's user consumes and dead-letters but cannot
 * publish a wallet event, and an anonymous client cannot connect at all.
 */

// Beside the live tests' (+50..52), the ingest status test's (+33) and poison.int.test.ts's (+36).
const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 37;
const hasNats = natsServerAvailable();
if (!hasNats && process.env.CI === "true")
  throw new Error("nats-server is not on PATH; CI requires the live tests");

const WALLET = { user: "wallet", pass: "wallet-secret-for-tests" };
const INGEST = { user: "ingest", pass: "ingest-secret-for-tests" };
const HEALTH = { user: "health", pass: "health-secret-for-tests" };

/** docs/live-data.md's accounts, with the tests' passwords. */
const ACCOUNTS = `
accounts {
  WALLET {
    jetstream: enabled
    users = [
      {
        user: "${WALLET.user}", password: "${WALLET.pass}"
        permissions: {
          publish: ["wallet.transaction", "wallet.player", "$JS.API.>"]
          subscribe: ["_INBOX.>"]
        }
      }
      {
        user: "${INGEST.user}", password: "${INGEST.pass}"
        permissions: {
          publish: ["wallet.dead", "$JS.API.>", "$JS.ACK.>"]
          subscribe: ["_INBOX.>"]
        }
      }
      {
        user: "${HEALTH.user}", password: "${HEALTH.pass}"
        permissions: {
          publish: ["$JS.API.INFO", "$JS.API.CONSUMER.INFO.WALLET.*", "$JS.API.STREAM.INFO.WALLET_DEAD",
                    "$JS.API.STREAM.MSG.GET.WALLET_DEAD"]
          subscribe: ["_INBOX.>"]
        }
      }
    ]
  }
}`;

/** The exit code of a script that should stop by itself (null: still running after `timeoutMs`, then killed). */
async function exitCode(script: ScriptProcess, timeoutMs: number): Promise<number | null> {
  if (script.child.exitCode !== null) return script.child.exitCode;
  const code = await Promise.race([
    new Promise<number | null>((r) => script.child.once("exit", (c) => r(c))),
    new Promise<null>((r) => setTimeout(() => r(null), timeoutMs)),
  ]);
  if (code === null) await script.kill("SIGKILL");
  return code;
}

async function waitForLine(script: ScriptProcess, text: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (script.output.some((l) => l.includes(text))) return true;
    if (script.child.exitCode !== null) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe.runIf(hasNats)("npm run ingest: who may reach the wallet's stream", () => {
  let open: NatsServer;
  let secured: NatsServer;
  let db: { url: string; stop(): Promise<void> };
  const saved = { ...process.env };
  const scripts: ScriptProcess[] = [];
  const start = (env: Record<string, string>) => {
    const script = startScriptProcess("ingest", { INGEST_ACK_WAIT_MS: "2000", ...env });
    scripts.push(script);
    return script;
  };

  beforeAll(async () => {
    open = createNatsServer(PORT);
    secured = createNatsServer(PORT + 1, { config: ACCOUNTS });
    await open.start();
    await secured.start();
    db = await freshTestDatabase(inject("databaseKind"), "nats_access");
  });

  afterAll(async () => {
    process.env = saved;
    resetEnvCache();
    for (const script of scripts) await script.kill("SIGKILL");
    await open?.destroy();
    await secured?.destroy();
    await db?.stop();
  });

  it("refuses to start without credentials, naming the settings that give them", async () => {
    const ingest = start({ DATABASE_URL: db.url, NATS_URL: open.url });
    expect(await exitCode(ingest, 30_000), ingest.output.join("\n")).toBe(2);
    const line = ingest.output.find((l) => l.includes("refusing to start")) ?? "";
    for (const setting of ["NATS_CREDS", "NATS_USER", "NATS_TOKEN", "NATS_ALLOW_ANONYMOUS=on"])
      expect(line).toContain(setting);
  }, 60_000);

  it("refuses a server that lets anonymous clients in, even with credentials", async () => {
    const ingest = start({ DATABASE_URL: db.url, NATS_URL: open.url, NATS_USER: "x", NATS_PASSWORD: "y" });
    expect(await exitCode(ingest, 30_000), ingest.output.join("\n")).toBe(2);
    expect(ingest.output.join("\n")).toMatch(
      /refusing to start: the NATS server at \S+ accepts anonymous clients/,
    );
  }, 60_000);

  it("NATS_ALLOW_ANONYMOUS=on: runs, and says so at the start", async () => {
    const ingest = start({ DATABASE_URL: db.url, NATS_URL: open.url, NATS_ALLOW_ANONYMOUS: "on" });
    expect(await waitForLine(ingest, "ingest: consuming", 60_000), ingest.output.join("\n")).toBe(true);
    expect(ingest.output.join("\n")).toContain("NATS_ALLOW_ANONYMOUS=on: running although anyone");
    const exited = new Promise<number | null>((r) => ingest.child.once("exit", (c) => r(c)));
    ingest.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 90_000);

  it("with accounts: no anonymous client, the wallet publishes, the consumer applies and dead-letters but cannot publish a wallet event", async () => {
    await expect(connect({ servers: secured.url, reconnect: false, timeout: 5_000 })).rejects.toBeInstanceOf(
      AuthorizationError,
    );
    const ingest = start({
      DATABASE_URL: db.url,
      NATS_URL: secured.url,
      NATS_USER: INGEST.user,
      NATS_PASSWORD: INGEST.pass,
    });
    expect(await waitForLine(ingest, "ingest: consuming", 60_000), ingest.output.join("\n")).toBe(true);
    expect(ingest.output.join("\n")).not.toContain("NATS_ALLOW_ANONYMOUS");

    const wallet = await connectPublisher(secured.url, undefined, WALLET);
    const sim = new WalletSim({ players: 2, prefix: "W", seed: 5 });
    const players = sim.playerEvents();
    for (const e of players) await wallet.publisher.publish(e);
    await wallet.publisher.settle();
    const malformed = JSON.stringify({ ...(players[0]?.record as object), id: "W-BAD", version: "two" });
    await jetstream(wallet.nc).publish("wallet.player", malformed, { msgID: "W-BAD:1" });

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    let consumerNc: NatsConnection | undefined;
    try {
      const count = async () =>
        Number((await client.query("SELECT count(*) FROM players WHERE id LIKE 'W%'")).rows[0]?.count);
      const deadline = Date.now() + 30_000;
      while ((await count()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await count()).toBe(2);
      let dead = await readDeadLetters(wallet.nc);
      while (dead.length < 1 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        dead = await readDeadLetters(wallet.nc);
      }
      expect(dead.map((d) => d.data)).toEqual([malformed]); // the consumer's user published on wallet.dead

      // The consumer's credentials, used to forge a deposit: refused by the server, nothing reaches the stream.
      consumerNc = await connect({ servers: secured.url, ...INGEST });
      const jsm = await jetstreamManager(consumerNc);
      const before = (await jsm.streams.info(WALLET_STREAM)).state.messages;
      const forged = JSON.stringify({ ...(players[1]?.record as object), blocked: true, version: 2 });
      await expect(
        jetstream(consumerNc).publish("wallet.player", forged, { msgID: "forged:1", timeout: 3_000 }),
      ).rejects.toThrow();
      consumerNc.publish("wallet.transaction", "{}");
      await consumerNc.flush();
      expect((await jsm.streams.info(WALLET_STREAM)).state.messages).toBe(before);
      const blocked = await client.query(
        "SELECT count(*)::int AS n FROM players WHERE id LIKE 'W%' AND blocked",
      );
      expect(blocked.rows[0]?.n).toBe(0);

      // /api/health/ingest as the web server's own user: the lag and the dead letter, nothing more needed.
      process.env = {
        ...saved,
        AUTH_MODE: "demo",
        NATS_URL: secured.url,
        NATS_USER: HEALTH.user,
        NATS_PASSWORD: HEALTH.pass,
      };
      resetEnvCache();
      (globalThis as { ingestNats?: unknown }).ingestNats = undefined;
      const prisma = createPrismaClient(db.url, 1);
      try {
        const status = await getIngestStatus({ timeoutMs: 5_000 }, prisma);
        expect(status).toMatchObject({
          nats: "connected",
          lag: { events: 0 },
          dead_letters: {
            held: 1,
            last: { subject: "wallet.player", reason: expect.stringMatching(/^version: /) },
          },
        });
      } finally {
        await prisma.$disconnect();
        await (await (globalThis as { ingestNats?: Promise<NatsConnection> }).ingestNats)?.close();
        (globalThis as { ingestNats?: unknown }).ingestNats = undefined;
      }
    } finally {
      await client.end();
      await consumerNc?.close();
      await wallet.nc.close();
    }
    const exited = new Promise<number | null>((r) => ingest.child.once("exit", (c) => r(c)));
    ingest.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 120_000);
});
