/*
 * The benchmark's floor app (tools/bench/floor-app) must do the product's reads, or its ratio means nothing: built and
 * started as `npm run bench` does, it answers the profile and a first page with the rows the product's data
 * functions read from the same database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listPlayerTransactions } from "../../features/transactions/data/list-player-transactions.ts";
import { httpGet, isFailure } from "../../test/support/app-process.ts";
import { createTestPrisma } from "../../test/support/test-client.ts";
import { ensureFloorBuild, floorStartCommand } from "./floor-app/floor-server.ts";

const WHALE = "P000007";
const prisma = createTestPrisma();
let floor: ChildProcess;
let base: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function getJson(path: string): Promise<{ status: number; body: unknown }> {
  const res = await httpGet(`${base}${path}`);
  if (isFailure(res)) throw new Error(`GET ${path}: ${res.error}`);
  return { status: res.status, body: JSON.parse(res.body) };
}

beforeAll(async () => {
  ensureFloorBuild(false, () => {});
  const port = await freePort();
  const { args, env } = floorStartCommand(port, inject("databaseUrl"));
  floor = spawn(process.execPath, args, { env, stdio: "ignore" });
  base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const res = await httpGet(`${base}/api/health`, {}, 2_000);
    if (!isFailure(res) && res.status === 200) break;
    if (floor.exitCode !== null || i === 150) throw new Error("the floor app did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
}, 180_000);

afterAll(async () => {
  floor?.kill("SIGTERM");
  await prisma.$disconnect();
});

describe("the benchmark's floor app", () => {
  it("answers a profile with the player's row, and 404 for an unknown player", async () => {
    const row = await prisma.player.findUnique({ where: { id: WHALE } });
    expect(row).not.toBeNull();
    const { status, body } = await getJson(`/api/v1/players/${WHALE}`);
    expect(status).toBe(200);
    expect(body).toEqual(JSON.parse(JSON.stringify(row)));
    expect((await getJson("/api/v1/players/P999999")).status).toBe(404);
  });

  it("answers a first page with the product's rows, order, total and has_more", async () => {
    const product = await listPlayerTransactions(
      { playerId: WHALE, filters: {}, limit: 20, offset: 0 },
      prisma,
    );
    expect(product?.hasMore).toBe(true);
    const { status, body } = await getJson(`/api/v1/players/${WHALE}/transactions?limit=20`);
    expect(status).toBe(200);
    const page = body as { transactions: { id: string }[]; total: number; has_more: boolean };
    expect(page.transactions.map((t) => t.id)).toEqual(product?.transactions.map((t) => t.id));
    expect(page.total).toBe(product?.total);
    expect(page.has_more).toBe(true);
  });
});
