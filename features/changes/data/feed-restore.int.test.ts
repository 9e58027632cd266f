import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freshTestDatabase } from "@/test/support/fresh-test-database";
import { closeApp } from "@/test/support/in-process-app";
import { createRouteKit, type RouteKit } from "@/test/support/route-test-kit";
import { dropPostgresDatabase, recreatePostgresDatabase } from "@/test/support/test-db";

/*
 * The case on the local PostgreSQL: a syncer follows database A; a dump of A taken a few positions earlier
 * is restored (pg_dump | psql) as database B, whose tail then passes the syncer's position. B names another feed,
 * although the dump carried A's stored epoch, and answers the syncer's position with A's feed 410; without `feed`
 * the request is answered as before. A dump restored into A itself (--clean) renames A's feed too.
 */

const run = promisify(execFile);

async function dump(url: string, clean = false): Promise<string> {
  const args = ["--no-owner", "--no-privileges", ...(clean ? ["--clean", "--if-exists"] : []), "-d", url];
  return (await run("pg_dump", args, { maxBuffer: 256 * 1024 * 1024 })).stdout;
}

function restore(url: string, script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const psql = spawn("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    psql.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    psql.on("error", reject);
    psql.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`psql: ${code} ${stderr}`))));
    psql.stdin.end(script);
  });
}

describe.runIf(inject("databaseKind") === "postgres")("a dump restored as another database", () => {
  let a: { url: string; stop(): Promise<void> };
  const bName = `${process.env.TEST_DB_PREFIX ?? "par"}_feed_restored_${process.pid}`;
  let bUrl: string;
  let kit: RouteKit;

  beforeAll(async () => {
    a = await freshTestDatabase("postgres", "feed_dumped");
    bUrl = await recreatePostgresDatabase(bName);
  });
  afterAll(async () => {
    try {
      await closeApp();
    } finally {
      await dropPostgresDatabase(bName);
      await a?.stop();
    }
  });

  async function on<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
  const addPlayers = (url: string, prefix: string, n: number) =>
    on(url, async (c) => {
      // One transaction each: one position each.
      for (let i = 1; i <= n; i++) {
        await c.query(
          `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Feed Test', 'EUR', now())`,
          [`${prefix}${i}`],
        );
      }
    });
  const feedOf = (url: string) =>
    on(url, async (c) => (await c.query<{ feed: string }>("SELECT change_feed_id() AS feed")).rows[0]?.feed);
  const epochOf = (url: string) =>
    on(
      url,
      async (c) => (await c.query<{ e: string }>("SELECT epoch::text AS e FROM change_feed")).rows[0]?.e,
    );

  it("names another feed, and refuses a position of the original's feed with 410 once its tail has passed it", async () => {
    await addPlayers(a.url, "PDUMPA", 3);
    const script = await dump(a.url);
    await addPlayers(a.url, "PDUMPB", 4); // the syncer follows A up to here
    const feedA = await feedOf(a.url);
    kit = await createRouteKit(a.url);
    const synced = (await kit.call("GET", "/api/v1/changes?limit=1")).json as { tail: number; feed: string };
    expect(synced.feed).toBe(feedA);
    await closeApp();

    await restore(bUrl, script);
    expect(await epochOf(bUrl)).toBe(await epochOf(a.url)); // the dump carried the stored epoch …
    const feedB = await feedOf(bUrl);
    expect(feedB).not.toBe(feedA); // … but not the feed
    await addPlayers(bUrl, "PDUMPC", 6); // B's own writes take its tail past the syncer's position

    kit = await createRouteKit(bUrl);
    const head = (await kit.call("GET", "/api/v1/changes?limit=1")).json as { tail: number; feed: string };
    expect(head.feed).toBe(feedB);
    expect(head.tail).toBeGreaterThan(synced.tail);
    const res = await kit.call("GET", `/api/v1/changes?after=${synced.tail}&feed=${synced.feed}`);
    expect(res.status, res.text).toBe(410);
    const problem = res.json as { type: string; errors: { name: string }[] };
    expect(problem.type).toMatch(/\/problems\/feed-gone$/);
    expect(problem.errors.map((e) => e.name)).toEqual(["feed"]);
    // Without feed the position is taken as B's (unchanged behaviour): exactly what `feed` guards against.
    const blind = await kit.call("GET", `/api/v1/changes?after=${synced.tail}`);
    expect(blind.status).toBe(200);
  });

  it("names another feed when the dump is restored into the same database", async () => {
    const before = await feedOf(a.url);
    await restore(a.url, await dump(a.url, true));
    const after = await feedOf(a.url);
    expect(after).toMatch(/^[0-9a-f]{32}$/);
    expect(after).not.toBe(before);
  });
});
