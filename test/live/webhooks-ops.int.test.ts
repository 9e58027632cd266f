import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgPool } from "@/platform/db/pg-pool";
import { addEndpoint, setEndpointActive } from "@/workers/webhooks/admin";
import { parseDispatchConfig } from "@/workers/webhooks/config";
import { type Dispatcher, startDispatcher } from "@/workers/webhooks/dispatcher";
import { freshTestDatabase } from "../support/fresh-test-database.ts";
import { createReceiver, type Receiver, verifyWebhook, waitFor } from "./webhook-receiver.ts";

/*
 * Running webhooks (docs/webhooks.md, issue 41): the 72-hour retry window driven by the dispatcher's clock (moved
 * by the test, not waited for), the failing endpoint it leaves (logged once, cleared by the next delivery), secret
 * rotation (both signatures during the overlap) and `npm run webhooks -- test` (a signed ping). The dispatcher
 * POSTs to real node:http receivers on loopback that verify with the documented recipe. Outbox rows are inserted
 * as the ingest batch writes them (webhooks.int.test.ts covers that part). PostgreSQL only, as there.
 */

// Receivers at E2E_POSTGRES_PORT + 85… (webhooks.int.test.ts uses + 70…78).
const PORT_BASE = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 85;
const HOUR = 3_600_000;
const root = path.resolve(import.meta.dirname, "../..");

describe.runIf(inject("databaseKind") === "postgres")(
  "webhooks: retry window, failing endpoints, rotation, ping",
  () => {
    let db: { url: string; stop(): Promise<void> };
    let pool: pg.Pool;
    let dispatchPool: pg.Pool;
    let dispatcher: Dispatcher | null = null;
    const receivers: Receiver[] = [];
    let sequence = 0;

    beforeAll(async () => {
      db = await freshTestDatabase("postgres", "webhooks_ops");
      pool = createPgPool(db.url, { max: 3 });
      dispatchPool = createPgPool(db.url, { max: 3 });
    });

    afterAll(async () => {
      await dispatcher?.stop();
      for (const r of receivers) await r.close().catch(() => undefined);
      await dispatchPool?.end();
      await pool?.end();
      await db?.stop();
    });

    /** A test that failed midway may leave its dispatcher (and its clock) running. */
    const stopDispatcher = async () => {
      await dispatcher?.stop();
      dispatcher = null;
    };

    async function receiverOn(offset: number, respond?: Receiver["respond"]) {
      await stopDispatcher();
      const r = createReceiver(PORT_BASE + offset, respond);
      receivers.push(r);
      await r.listen();
      return r;
    }

    /** An outbox row for the endpoint, as the ingest batch writes it; returns its id. */
    async function enqueue(endpointId: string): Promise<string> {
      sequence += 1;
      const eventId = `00000000-0000-3000-8000-${String(sequence).padStart(12, "0")}`;
      const payload = JSON.stringify({
        id: eventId,
        type: "transaction.large",
        created_at: new Date().toISOString(),
        data: { id: `T-OPS-${sequence}` },
      });
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, payload)
       VALUES ($1, $2, 'transaction.large', $3) RETURNING id::text`,
        [eventId, endpointId, payload],
      );
      return rows[0]?.id ?? "";
    }

    const delivery = async (id: string) =>
      (
        await pool.query(
          `SELECT status, attempts, retry_started_at, next_attempt_at FROM webhook_deliveries WHERE id = $1::bigint`,
          [id],
        )
      ).rows[0] as { status: string; attempts: number; retry_started_at: Date | null; next_attempt_at: Date };

    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "workers/webhooks/admin-main.ts", ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: db.url },
      });

    it("retries for 72 hours by its clock, then fails the delivery and marks the endpoint failing, once", async () => {
      const r = await receiverOn(0, () => 503);
      const { id: endpointId, secret } = await addEndpoint(
        { url: r.url, eventTypes: ["transaction.large"] },
        pool,
      );
      const start = new Date(Date.now() + 1_000);
      let clock = start;
      const warnings: { message: string; fields: Record<string, unknown> }[] = [];
      const infos: string[] = [];
      dispatcher = startDispatcher(
        {
          // The default schedule (72-hour window, no bound on attempts), polling often.
          config: parseDispatchConfig({
            DATABASE_URL: db.url,
            WEBHOOK_POLL_MS: "50",
            WEBHOOK_CONCURRENCY: "2",
          }),
          log: {
            info: (message) => infos.push(message),
            warn: (message, fields) => warnings.push({ message, fields }),
          },
          now: () => clock,
        },
        dispatchPool,
      );
      const id = await enqueue(endpointId);
      await waitFor(async () => (await delivery(id)).attempts === 1, "the first attempt");
      const first = await delivery(id);
      expect(first.status).toBe("pending");
      expect(first.retry_started_at?.getTime()).toBe(start.getTime());
      // The next attempt is 5–10 s later by the clock, which has not moved: nothing more is sent.
      expect(first.next_attempt_at.getTime() - start.getTime()).toBeGreaterThanOrEqual(5_000);

      clock = new Date(start.getTime() + 72 * HOUR - 5_000); // down for almost 72 hours: still retried…
      await waitFor(async () => (await delivery(id)).attempts === 2, "the attempt 5 s before 72 h");
      const second = await delivery(id);
      expect(second.status).toBe("pending");
      // …and the last retry (due 10–20 s later by the backoff) is planned when the window ends.
      expect(second.next_attempt_at.getTime()).toBe(start.getTime() + 72 * HOUR);
      expect(warnings.filter((w) => w.message === "webhooks: endpoint failing")).toHaveLength(0);

      clock = new Date(start.getTime() + 72 * HOUR);
      await waitFor(async () => (await delivery(id)).status === "failed", "the failed delivery at 72 h");
      expect((await delivery(id)).attempts).toBe(3);
      expect(r.requests).toHaveLength(3);
      for (const q of r.requests) expect(verifyWebhook(secret, q.headers, q.body)).toBe(true);
      const endpoint = async () =>
        (await pool.query("SELECT failing_since FROM webhook_endpoints WHERE id = $1", [endpointId]))
          .rows[0] as {
          failing_since: Date | null;
        };
      expect((await endpoint()).failing_since?.getTime()).toBe(clock.getTime());

      // A second delivery running out too: the endpoint was failing already, so the operator is not told twice.
      const another = await enqueue(endpointId);
      await waitFor(async () => (await delivery(another)).attempts === 1, "another delivery's first attempt");
      clock = new Date(start.getTime() + 145 * HOUR);
      await waitFor(async () => (await delivery(another)).status === "failed", "another failed delivery");
      const failing = warnings.filter((w) => w.message === "webhooks: endpoint failing");
      expect(failing).toHaveLength(1);
      expect(failing[0]?.fields).toMatchObject({ endpoint: endpointId, attempts: 3 });
      expect(JSON.stringify(warnings)).not.toContain(secret); // never logged
      expect((await endpoint()).failing_since?.getTime()).toBe(start.getTime() + 72 * HOUR);

      // The receiver is back: the next delivered event ends the failing state.
      r.respond = () => 200;
      const later = await enqueue(endpointId);
      await waitFor(
        async () => (await delivery(later)).status === "delivered",
        "the delivery after recovery",
      );
      await waitFor(async () => (await endpoint()).failing_since === null, "the failing state cleared");
      expect(infos).toContain("webhooks: endpoint recovered");
      await dispatcher.stop();
      dispatcher = null;
      await setEndpointActive({ id: endpointId, active: false }, pool);
    });

    it("rotate: both signatures during the overlap, the old one's refused after; the new secret printed once", async () => {
      const r = await receiverOn(1);
      const { id: endpointId, secret: oldSecret } = await addEndpoint(
        { url: r.url, eventTypes: ["transaction.large"] },
        pool,
      );
      const rotated = JSON.parse((await cli("rotate", endpointId, "--overlap-hours", "2")).stdout) as {
        id: string;
        secret: string;
        previous_secret_valid_until: string;
      };
      expect(rotated.id).toBe(endpointId);
      expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(rotated.secret).not.toBe(oldSecret);
      const overlap = Date.parse(rotated.previous_secret_valid_until) - Date.now();
      expect(overlap).toBeGreaterThan(1.5 * HOUR);
      expect(overlap).toBeLessThanOrEqual(2 * HOUR);
      const listed = (await cli("list")).stdout;
      expect(listed).not.toContain("whsec_");
      expect(listed).toContain(rotated.previous_secret_valid_until);

      dispatcher = startDispatcher(
        {
          config: parseDispatchConfig({
            DATABASE_URL: db.url,
            WEBHOOK_POLL_MS: "50",
            WEBHOOK_CONCURRENCY: "1",
          }),
          log: { info: () => undefined, warn: () => undefined },
        },
        dispatchPool,
      );
      await enqueue(endpointId);
      await waitFor(() => r.requests.length === 1, "the delivery during the overlap");
      const during = r.requests[0];
      if (!during) throw new Error("no request");
      expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      // A receiver still on the old secret and one already on the new both accept it.
      expect(verifyWebhook(oldSecret, during.headers, during.body)).toBe(true);
      expect(verifyWebhook(rotated.secret, during.headers, during.body)).toBe(true);

      // The overlap over: the new secret only.
      await pool.query(
        "UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1",
        [endpointId],
      );
      await enqueue(endpointId);
      await waitFor(() => r.requests.length === 2, "the delivery after the overlap");
      const after = r.requests[1];
      if (!after) throw new Error("no request");
      expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
      expect(verifyWebhook(rotated.secret, after.headers, after.body)).toBe(true);
      expect(verifyWebhook(oldSecret, after.headers, after.body)).toBe(false);
      await dispatcher.stop();
      dispatcher = null;
      await setEndpointActive({ id: endpointId, active: false }, pool);
    }, 180_000); // two tsx processes on a loaded machine

    it("npm run webhooks -- test: a signed ping now; exit 1 when the receiver does not answer 2xx", async () => {
      const r = await receiverOn(2, (i) => (i === 0 ? 200 : 500));
      const { id: endpointId, secret } = await addEndpoint(
        { url: r.url, eventTypes: ["transaction.large"] },
        pool,
      );
      const ok = JSON.parse((await cli("test", endpointId)).stdout) as {
        ok: boolean;
        status_code: number;
        event_id: string;
      };
      expect(ok).toMatchObject({ ok: true, status_code: 200, error: null });
      const ping = r.requests[0];
      if (!ping) throw new Error("no ping");
      expect(verifyWebhook(secret, ping.headers, ping.body)).toBe(true);
      expect(JSON.parse(ping.body)).toMatchObject({
        id: ok.event_id,
        type: "ping",
        data: { endpoint_id: endpointId },
      });
      expect(ping.headers["webhook-id"]).toBe(ok.event_id);
      const refused = await cli("test", endpointId).then(
        () => null,
        (e: { code: number; stdout: string }) => e,
      );
      expect(refused?.code).toBe(1);
      expect(JSON.parse(refused?.stdout ?? "{}")).toMatchObject({ ok: false, status_code: 500 });
      // Nothing stored: a ping is not an outbox delivery.
      const stored = await pool.query("SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1", [
        endpointId,
      ]);
      expect(stored.rowCount).toBe(0);
    }, 180_000);
  },
);
