import { webhookHeaders } from "./signature.ts";

/*
 * One attempt: POST the body, signed, to the endpoint, within the timeout. No redirects are followed (a 3xx is a
 * failed attempt: the endpoint's URL is what the admin configured). The answer's body is read and discarded, so
 * the connection can be reused, but only up to MAX_ANSWER_BYTES: a receiver streaming gigabytes back costs
 * one read of 64 KB, then the answer is cancelled (and its connection closed).
 */
export interface PostWebhookOptions {
  url: string;
  secret: string;
  /** During a rotation's overlap: signed with too (two signatures in webhook-signature). */
  previousSecret?: string | null;
  eventId: string;
  body: string;
  timeoutMs: number;
  /** Unix seconds (now unless a test fixes it). */
  timestamp?: number;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** Bytes of the answer's body read (at most MAX_ANSWER_BYTES and one more socket read). */
  answerBytes?: number;
}

/** How much of a receiver's answer is read; only its status counts. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export const USER_AGENT = "player-account-read-service-webhooks/1";

export async function postWebhook(options: PostWebhookOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    ...webhookHeaders({
      secret: options.secret,
      previousSecret: options.previousSecret,
      id: options.eventId,
      timestamp,
      body: options.body,
    }),
  };
  try {
    const response = await fetch(options.url, {
      method: "POST",
      headers,
      body: options.body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const answerBytes = await discardAnswer(response);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      error: ok ? null : `HTTP ${response.status}`,
      latencyMs: Math.round(performance.now() - started),
      answerBytes,
    };
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      error: attemptError(error, options.timeoutMs),
      latencyMs: elapsed(started),
    };
  }
}

/** Reads the answer's body to its end or past MAX_ANSWER_BYTES, then cancels it; returns the bytes read. */
async function discardAnswer(response: Response): Promise<number> {
  const reader = response.body?.getReader();
  if (!reader) return 0;
  let read = 0;
  try {
    while (read <= MAX_ANSWER_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) return read;
      read += chunk.value.byteLength;
    }
    await reader.cancel();
  } catch {
    // A body cut short or timed out: the status has answered already.
  }
  return read;
}

const elapsed = (started: number) => Math.round(performance.now() - started);

/** A short reason without the URL's query or anything else the error may quote. */
function attemptError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `timeout after ${timeoutMs} ms`;
  const code = e.cause?.code;
  if (code) return `network error: ${code}`;
  return `network error: ${String(e.cause?.message ?? (error as Error).message ?? error).slice(0, 200)}`;
}
