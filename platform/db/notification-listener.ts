import { randomUUID } from "node:crypto";
import pg from "pg";
import { describeError, log } from "@/platform/log/log";

/** What the listener reports: connecting (first try or after a loss), live, or unavailable. */
export type ListenerState = "connecting" | "live" | "unavailable";

export interface NotificationListenerOptions {
  /** The database to listen on (a dedicated connection: LISTEN needs a session of its own, not a pooled one). */
  url: string;
  channel: string;
  /** Each payload that arrives on `channel`, as sent. */
  onPayload: (payload: string | undefined) => void;
  onState: (state: ListenerState) => void;
  /**
   * Sends `SELECT pg_notify(channel, payload)` on ANOTHER connection than the listener's: proof that
   * notifications from other sessions reach this one (a pgbouncer in transaction mode or the embedded PGlite's
   * socket server, which runs every connection in one session, deliver none).
   */
  notify: (channel: string, payload: string) => Promise<void>;
  /** A probe round trip every so often on a live connection; a lost one reconnects. Default 30 s. */
  probeIntervalMs?: number;
  /** How long a probe may take. Default 5 s. */
  probeTimeoutMs?: number;
  /** Failed attempts in a row after which the state is `unavailable` (it keeps retrying). Default 3. */
  unavailableAfter?: number;
  /** Backoff between attempts: doubles from `initialMs` up to `maxMs`, with jitter. */
  backoff?: { initialMs: number; maxMs: number };
  connectTimeoutMs?: number;
}

export interface NotificationListener {
  /** Closes the connection and stops retrying. */
  stop(): Promise<void>;
}

/** The channel probes travel on: beside the data channel, so listeners of the data never see them. */
export const probeChannelOf = (channel: string) => `${channel}_probe`;

/**
 * One LISTEN connection, kept: it reconnects with backoff after any loss, and proves every so often that
 * notifications still arrive (a probe sent from another connection), since a half-open TCP connection or a
 * restarted server can otherwise look connected while nothing comes.
 */
export function startNotificationListener(options: NotificationListenerOptions): NotificationListener {
  const run = new ListenerRun(options);
  void run.loop();
  return { stop: () => run.stop() };
}

class ListenerRun {
  private stopped = false;
  private wake: (() => void) | null = null;
  private client: pg.Client | null = null;
  private readonly pendingProbes = new Map<string, () => void>();
  /** The last failure logged: the same one again (every retry on a database without notifications) is not. */
  private lastLogged = "";
  private done: Promise<void> = Promise.resolve();

  constructor(private readonly o: NotificationListenerOptions) {}

  async loop(): Promise<void> {
    let finish = () => {};
    this.done = new Promise((resolve) => {
      finish = resolve;
    });
    let failures = 0;
    this.o.onState("connecting");
    while (!this.stopped) {
      const outcome = await this.session();
      if (this.stopped) break;
      failures = outcome === "was-live" ? 1 : failures + 1;
      // Connected and listening, yet the probe never came: this database does not deliver notifications (the
      // embedded PGlite's socket server); say so at once rather than after several attempts.
      const unavailable = outcome === "no-delivery" || failures >= (this.o.unavailableAfter ?? 3);
      this.o.onState(unavailable ? "unavailable" : "connecting");
      await this.sleep(this.backoffMs(failures));
    }
    finish();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.client?.end().catch(() => {});
    await this.done;
  }

  /** One connection, from connect to loss: whether it was live (its first probe answered), and if not why. */
  private async session(): Promise<"was-live" | "failed" | "no-delivery"> {
    const client = new pg.Client({
      connectionString: this.o.url,
      connectionTimeoutMillis: this.o.connectTimeoutMs ?? 5_000,
      keepAlive: true,
      application_name: "par-live-listener",
    });
    this.client = client;
    let outcome: "was-live" | "failed" | "no-delivery" = "failed";
    const lost = new Promise<string>((resolve) => {
      client.on("error", (error) => resolve(reasonOf(error)));
      client.on("end", () => resolve("connection ended"));
    });
    client.on("notification", (message) => this.received(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.o.channel)}`);
      await client.query(`LISTEN ${client.escapeIdentifier(probeChannelOf(this.o.channel))}`);
      outcome = "no-delivery";
      await this.probe();
      outcome = "was-live";
      this.o.onState("live");
      this.lastLogged = "";
      const reason = await Promise.race([lost, this.probeUntilLost()]);
      if (!this.stopped) log.warn("live updates: listener lost", { reason });
    } catch (error) {
      // A probe that could not even be sent (the pool's database is down) says nothing about delivery.
      if (outcome === "no-delivery" && !(error instanceof NoDelivery)) outcome = "failed";
      if (!this.stopped) this.logFailure(error);
    } finally {
      this.client = null;
      for (const resolve of this.pendingProbes.values()) resolve();
      this.pendingProbes.clear();
      await client.end().catch(() => {});
    }
    return outcome;
  }

  private logFailure(error: unknown): void {
    const reason = reasonOf(error);
    if (reason === this.lastLogged) return;
    this.lastLogged = reason;
    if (error instanceof NoDelivery) {
      log.info(
        "live updates: unavailable, the database does not deliver notifications (retrying now and then)",
        {
          reason,
        },
      );
    } else {
      log.warn("live updates: listener could not start", describeError(error));
    }
  }

  private received(message: pg.Notification): void {
    if (message.channel === this.o.channel) {
      this.o.onPayload(message.payload);
    } else if (message.channel === probeChannelOf(this.o.channel) && message.payload) {
      this.pendingProbes.get(message.payload)?.();
    }
  }

  /** Sends a probe from another connection and waits for it here; throws when it does not come back. */
  private async probe(): Promise<void> {
    const nonce = randomUUID();
    const timeoutMs = this.o.probeTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.pendingProbes.set(nonce, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await this.o.notify(probeChannelOf(this.o.channel), nonce);
      if (!(await arrived)) {
        throw new NoDelivery(
          `no notification arrived within ${timeoutMs} ms (this database does not deliver them)`,
        );
      }
    } finally {
      clearTimeout(timer);
      this.pendingProbes.delete(nonce);
    }
    if (this.stopped) throw new Error("stopped");
  }

  /** Resolves with the reason once a periodic probe fails (or the listener stops). */
  private async probeUntilLost(): Promise<string> {
    for (;;) {
      await this.sleep(this.o.probeIntervalMs ?? 30_000);
      if (this.stopped) return "stopped";
      try {
        await this.probe();
      } catch (error) {
        return reasonOf(error);
      }
    }
  }

  private backoffMs(failures: number): number {
    const { initialMs, maxMs } = this.o.backoff ?? { initialMs: 500, maxMs: 30_000 };
    const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, failures - 1));
    return base / 2 + Math.random() * (base / 2);
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const previous = this.wake;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      // Several sleeps may be pending (the probe loop and the retry); stop wakes them all.
      this.wake = () => {
        previous?.();
        done();
      };
    });
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class NoDelivery extends Error {
  override name = "NoDelivery";
}
