import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type SseEvent, SseParser } from "@/features/live/client/sse-parser";
import { liveStreamCounts } from "@/features/live/data/live-stream-gate";
import { getAuditQueue, setAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "@/platform/db/refresh-player-aggregates";
import { resetEnvCache } from "@/platform/env/env";
import { openEventStreamCount } from "@/platform/http/sse-response";
import { getPlayerChangeFeed, stopPlayerChangeFeed } from "./player-change-feed.ts";
import type { FeedState, PlayerChangeHub } from "./player-change-hub.ts";

/*
 * The feed against the real database: PostgreSQL delivers a committed NOTIFY to the one LISTEN connection and the
 * hub fans it out; the embedded PGlite's socket server delivers none, and the feed says so (`unavailable`).
 */

const url = inject("databaseUrl");
const kind = inject("databaseKind");
type Route = (request: Request, ctx: { params: Promise<{ playerId: string }> }) => Promise<Response>;
let route: Route;
let transactionsRoute: Route;
let profileRoute: Route;
let notifier: pg.Client;

beforeAll(async () => {
  Object.assign(process.env, {
    DATABASE_URL: url,
    AUTH_MODE: "demo",
    RATE_LIMIT_MAX: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
    LIVE_STREAMS_PER_CALLER: "2",
  });
  resetEnvCache();
  route = (
    (await import("../../../app/api/v1/players/[playerId]/events/route.ts")) as unknown as { GET: Route }
  ).GET;
  transactionsRoute = (
    (await import("../../../app/api/v1/players/[playerId]/transactions/route.ts")) as unknown as {
      GET: Route;
    }
  ).GET;
  profileRoute = (
    (await import("../../../app/api/v1/players/[playerId]/route.ts")) as unknown as { GET: Route }
  ).GET;
  notifier = new pg.Client({ connectionString: url });
  await notifier.connect();
});
afterAll(async () => {
  await notifier.end();
  await stopPlayerChangeFeed();
  await getAuditQueue().flush();
  await getPrisma().$disconnect();
});

function stateBecomes(hub: PlayerChangeHub, wanted: FeedState, timeoutMs = 20_000): Promise<void> {
  if (hub.state === wanted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`feed stayed ${hub.state}, not ${wanted}`)), timeoutMs);
    const off = hub.onState((state) => {
      if (state !== wanted) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** The ids the hub hands a subscriber of `playerIds`, in arrival order. */
function collect(hub: PlayerChangeHub, playerIds: string[]) {
  const seen: string[] = [];
  const offs = playerIds.map((id) => hub.subscribe(id, (changed) => seen.push(changed)));
  return {
    seen,
    off: () => {
      for (const off of offs) off();
    },
    /** Resolves once `id` has been seen (the last of a sequence proves everything before it arrived too). */
    until: (id: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no nudge for ${id}; saw ${seen.join(",")}`)),
          10_000,
        );
        const poll = setInterval(() => {
          if (!seen.includes(id)) return;
          clearInterval(poll);
          clearTimeout(timer);
          resolve();
        }, 10);
      }),
  };
}

/** A transaction that changes players and signals them as the ingest consumer does: NOTIFY inside it. */
async function committedBatch(payload: string, commit = true): Promise<void> {
  await notifier.query("BEGIN");
  await notifier.query("SELECT pg_notify('player_changes', $1)", [payload]);
  await notifier.query(commit ? "COMMIT" : "ROLLBACK");
}

describe.runIf(kind === "postgres")("the player-change feed on PostgreSQL", () => {
  it("hands each committed notification to the subscribers of the players it names, and nothing else", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "live");
    const sub = collect(hub, ["PTEST0001", "PTEST0002", "PEND"]);
    await committedBatch('["PTEST0001","PNOBODY"]');
    await committedBatch('["PTEST0002"]', false); // rolled back: PostgreSQL sends nothing
    await committedBatch("not json");
    await committedBatch('{"player_id":"PTEST0002"}');
    await committedBatch('["PTEST0002", 7]');
    await committedBatch('["PEND"]');
    await sub.until("PEND");
    // Notifications arrive in commit order: by the last one, every earlier one has been handled.
    expect(sub.seen).toEqual(["PTEST0001", "PEND"]);
    sub.off();
    expect(hub.subscriberCount).toBe(0);
  });

  it("reconnects after its connection is killed and delivers again", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "live");
    const killed = await notifier.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'par-live-listener' AND datname = current_database()",
    );
    expect(killed.rowCount).toBe(1);
    await stateBecomes(hub, "connecting");
    await stateBecomes(hub, "live");
    const sub = collect(hub, ["PTEST0001"]);
    await committedBatch('["PTEST0001"]');
    await sub.until("PTEST0001");
    sub.off();
  });

  it("streams feed and change events to a page, cleans up when it goes away, caps streams per caller", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "live");
    const before = { subscribers: hub.subscriberCount, states: hub.stateListenerCount };
    const first = await openStream("PTEST0001");
    const second = await openStream("PTEST0001");
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await first.next()).toEqual({ event: "feed", data: '{"state":"live"}' });
    expect(await second.next()).toEqual({ event: "feed", data: '{"state":"live"}' });
    expect(hub.subscriberCount).toBe(before.subscribers + 2);

    const third = await openStream("PTEST0001");
    expect(third.response.status).toBe(429);
    expect(third.response.headers.get("retry-after")).toBe("30");

    await committedBatch('["PTEST0002","PTEST0001"]');
    expect(await first.next()).toEqual({ event: "change", data: '{"player_id":"PTEST0001"}' });
    expect(await second.next()).toEqual({ event: "change", data: '{"player_id":"PTEST0001"}' });

    first.abort();
    second.abort();
    expect(hub.subscriberCount).toBe(before.subscribers);
    expect(hub.stateListenerCount).toBe(before.states);
    expect(openEventStreamCount()).toBe(0);
    expect(liveStreamCounts()).toEqual({ total: 0, callers: 0 });
    // The slots are free again.
    const again = await openStream("PTEST0001");
    expect(again.response.status).toBe(200);
    again.abort();

    await getAuditQueue().flush();
    const audited = await getPrisma().auditEvent.count({
      where: { operation: "live_updates", playerId: "PTEST0001" },
    });
    expect(audited).toBe(3); // one per stream opened (the refused one is not), none per nudge
  });

  it("a stream the audit trail cannot record (503) gives its slot back: the caller can open streams again", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "live");
    await getAuditQueue().flush();
    // A backlog of one: the real queue, as AUDIT_MAX_PENDING sets it, held full by a write that waits on a lock.
    Object.assign(process.env, { AUDIT_MAX_PENDING: "1" });
    resetEnvCache();
    setAuditQueue(undefined);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE audit_events IN SHARE ROW EXCLUSIVE MODE");
      const held = call(profileRoute, "PTEST0001", "");
      while (getAuditQueue().pending < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(getAuditQueue().isFull()).toBe(true);
      // More refusals than the caller has slots (LIVE_STREAMS_PER_CALLER = 2): a leak would leave none.
      for (let i = 0; i < 3; i++) {
        const refused = await openStream("PTEST0001");
        expect(refused.response.status).toBe(503);
      }
      expect(liveStreamCounts()).toEqual({ total: 0, callers: 0 });
      await locker.query("COMMIT");
      await held;
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      await locker.end();
      await getAuditQueue().flush();
      delete process.env.AUDIT_MAX_PENDING;
      resetEnvCache();
      setAuditQueue(undefined);
    }
    // The backlog has cleared: the caller opens its two streams.
    const first = await openStream("PTEST0001");
    const second = await openStream("PTEST0001");
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    first.abort();
    second.abort();
    expect(liveStreamCounts()).toEqual({ total: 0, callers: 0 });
  });

  it("a nudge is never ahead of the data: the list and profile read at the nudge already have the batch", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "live");
    const player = "PLIVE0001";
    await notifier.query(
      `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Live Fixture', 'EUR', '2025-01-01Z')`,
      [player],
    );
    try {
      const reads: { total: number; firstId: string | undefined; ltd: string }[] = [];
      let done: () => void = () => {};
      const read = new Promise<void>((resolve) => {
        done = resolve;
      });
      const off = hub.subscribe(player, () => {
        void (async () => {
          // Read through the API's own handlers the moment the nudge arrives, as a page or an API reader would.
          const list = await call(transactionsRoute, player, "/transactions?limit=1");
          const profile = await call(profileRoute, player, "");
          reads.push({ total: list.total, firstId: list.transactions[0]?.id, ltd: String(profile.kpi?.ltd) });
          done();
        })();
      });
      await notifier.query("BEGIN");
      await notifier.query(
        `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at, completed_at)
         VALUES ('TLIVEFRESH1', $1, now(), 'deposit', 'Card Deposit', 50.25, 'EUR', 'System', now(), now())`,
        [player],
      );
      await notifier.query(REFRESH_PLAYER_AGGREGATES_SQL, [[player]]);
      await notifier.query("SELECT pg_notify('player_changes', $1)", [JSON.stringify([player])]);
      await notifier.query("COMMIT");
      await read;
      off();
      expect(reads).toEqual([{ total: 1, firstId: "TLIVEFRESH1", ltd: "50.25" }]);
    } finally {
      await notifier.query("DELETE FROM players WHERE id = $1", [player]);
    }
  });

  it("a forged NOTIFY carrying data changes nothing: a page gets a bare nudge and refetches the same data", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "live");
    const before = await call(profileRoute, "PTEST0001", "");
    const stream = await openStream("PTEST0001");
    expect(await stream.next()).toEqual({ event: "feed", data: '{"state":"live"}' });
    // Anyone who may NOTIFY can send these: data in the payload is never read, only player ids are.
    await committedBatch('[{"player_id":"PTEST0001","total_balance":"999999999.00","blocked":true}]');
    await committedBatch('{"PTEST0001":{"kpi":{"ltd":"1e12"}}}');
    await committedBatch('["PTEST0001"]');
    expect(await stream.next()).toEqual({ event: "change", data: '{"player_id":"PTEST0001"}' });
    stream.abort();
    const after = await call(profileRoute, "PTEST0001", "");
    expect(after).toEqual(before);
  });

  it("answers 404 for an unknown player and 400 for any parameter, opening nothing", async () => {
    const hub = getPlayerChangeFeed();
    const before = hub.subscriberCount;
    expect((await openStream("PNOSUCH999")).response.status).toBe(404);
    expect((await openStream("PTEST0001", "?since=1")).response.status).toBe(400);
    expect(hub.subscriberCount).toBe(before);
    expect(liveStreamCounts().total).toBe(0);
  });
});

describe.runIf(kind === "embedded")("the player-change feed on the embedded PGlite", () => {
  it("finds that notifications are not delivered, and the stream route answers 503", async () => {
    const hub = getPlayerChangeFeed();
    await stateBecomes(hub, "unavailable");
    const res = await openStream("PTEST0001");
    expect(res.response.status).toBe(503);
    expect(res.response.headers.get("retry-after")).toBe("60");
  });
});

/** A JSON read through a route handler, as the page's fetch makes it. */
// biome-ignore lint/suspicious/noExplicitAny: the test reads a few fields of the API's JSON
async function call(handler: Route, playerId: string, rest: string): Promise<any> {
  const request = new Request(`http://localhost/api/v1/players/${playerId}${rest}`, {
    headers: { Authorization: "Bearer demo-token", "X-Session-ID": "live-test" },
  });
  const response = await handler(request, { params: Promise.resolve({ playerId }) });
  expect(response.status).toBe(200);
  return response.json();
}

async function openStream(playerId: string, query = "") {
  const controller = new AbortController();
  const request = new Request(`http://localhost/api/v1/players/${playerId}/events${query}`, {
    headers: { Authorization: "Bearer demo-token", "X-Session-ID": "live-test" },
    signal: controller.signal,
  });
  const response = await route(request, { params: Promise.resolve({ playerId }) });
  const reader = response.body?.getReader();
  const parser = new SseParser();
  const queued: SseEvent[] = [];
  const decoder = new TextDecoder();
  return {
    response,
    abort: () => controller.abort(),
    async next(): Promise<SseEvent> {
      while (queued.length === 0) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) throw new Error("the stream ended");
        queued.push(...parser.push(decoder.decode(chunk.value, { stream: true })));
      }
      return queued.shift() as SseEvent;
    },
  };
}
