import pino, { type DestinationStream, type Logger } from "pino";

/*
 * Structured JSON log lines (pino): info and debug on stdout, warnings and errors on stderr.
 * Never pass player e-mail or phone here. As a second line of defence, keys that name secrets or contact
 * data are redacted and string values that look like e-mail addresses, phone numbers, bearer tokens or
 * JWTs are masked before a line is written.
 */

type Level = "debug" | "info" | "warn" | "error";
const LEVELS = new Set(["debug", "info", "warn", "error", "silent"]);

/** Keys whose values are never written, at any depth the scrubber walks (compared in lower case). */
const SENSITIVE_KEYS = new Set(
  [
    "authorization",
    "cookie",
    "set-cookie",
    "token",
    "accessToken",
    "access_token",
    "idToken",
    "refreshToken",
    "password",
    "secret",
    "email",
    "phone",
  ].map((k) => k.toLowerCase()),
);
const REDACTED = "[redacted]";

/*
 * Masking runs on client-chosen text (request paths) before authentication, so every pattern must cost time
 * linear in the text's length: a pattern that may start at every character of a long run and scan to the
 * run's end is quadratic (a 15,000-character path of letters took ~0.1 s per log line with
 * `[…]+@…`). Hence the e-mail parts are bounded by RFC 5321's lengths (local part ≤ 64, label ≤ 63), and a
 * JWT is any word starting with a JSON header (`eyJ`) with whatever dotted segments follow: such a match
 * never fails part-way, so nothing is rescanned. Held by request-path-cost.test.ts.
 */
/** Applied in this order: a bearer token before the JWT it may be, both before the e-mail and phone patterns. */
export const MASKS: readonly [RegExp, string][] = [
  [/\b(bearer)\s+[\w.~+/=-]+/gi, "$1 [redacted]"],
  [/\beyJ[\w-]+(?:\.[\w-]*)*/g, "[jwt]"],
  [/[\w.!#$%&'*+/=?^`{|}~-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g, "[email]"],
  [/\+\d[\d ().-]{6,}\d/g, "[phone]"],
];

/** Longer text is cut (after masking) so that a client cannot make one log line as long as it likes. */
export const MAX_LOGGED_TEXT = 2_048;

/**
 * What every pattern above needs to match: an `@` (e-mail), a `+` (phone), `eyJ` (JWT) or the word bearer. Most
 * text (request ids, paths, method names) has none, and one scan for them replaces four regex passes: the
 * e-mail pattern alone cost ~2 µs per path, ~2% of a first page's CPU (docs/performance.md). Linear too.
 */
const MAYBE_SENSITIVE = /[@+]|eyJ|bearer/i;

export function scrubText(text: string): string {
  let masked = text;
  if (MAYBE_SENSITIVE.test(text))
    for (const [pattern, replacement] of MASKS) masked = masked.replace(pattern, replacement);
  return masked.length <= MAX_LOGGED_TEXT
    ? masked
    : `${masked.slice(0, MAX_LOGGED_TEXT)}…[${masked.length - MAX_LOGGED_TEXT} more characters]`;
}

/**
 * One walk over a line's fields does both defences: values under sensitive keys are replaced, and text is
 * masked. (pino's own `redact` walked the same fields again for 36 paths: ~1.3% of a profile read's CPU.)
 */
function scrub(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  // Errors and other class instances are left to pino's serializers.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    out[key] = SENSITIVE_KEYS.has(key.toLowerCase()) ? REDACTED : scrub(item, depth + 1);
  }
  return out;
}

function levelFromEnv(): string {
  const level = process.env.LOG_LEVEL ?? "info";
  return LEVELS.has(level) ? level : "info";
}

/**
 * Standard output as the access log's destination. A line per request written at once cost a write(2) per
 * request (blocking, ~2% of a profile read's CPU), and written asynchronously one at a time a thread-pool round
 * trip per request (no cheaper: docs/performance.md). Lines are gathered instead: written when 4 KB are waiting
 * and at least every 200 ms, without blocking the server, and flushed at exit (pino registers that). If nothing
 * reads standard output, up to 16 MB wait; lines beyond are dropped, not held in memory or waited for, and the
 * drop is reported on standard error.
 */
function accessLogDestination(): DestinationStream {
  const stream = pino.destination({
    dest: 1,
    sync: false,
    minLength: 4096,
    periodicFlush: 200,
    maxLength: 16 * 1024 * 1024,
  });
  let reported = 0;
  stream.on("drop", () => {
    const now = Date.now();
    if (now - reported < 10_000) return;
    reported = now;
    process.stderr.write(
      `${JSON.stringify({ level: "warn", time: new Date(now).toISOString(), pid: process.pid, msg: "log lines dropped: standard output is not being read" })}\n`,
    );
  });
  return stream;
}

/** Each default logger's standard output, where the access log's lines are written directly (see `request`). */
const stdoutOf = new WeakMap<Logger, DestinationStream>();

/** A logger writing to `destination` (tests), or split by level: debug and info to stdout, warn and up to stderr. */
export function createLogger(destination?: DestinationStream, level = levelFromEnv()): Logger {
  const stdout = destination ? undefined : accessLogDestination();
  const stream =
    destination ??
    pino.multistream(
      [
        { level: "debug", stream: stdout as DestinationStream },
        // Warnings and errors are few and matter most when the process is about to die: written at once.
        { level: "warn", stream: pino.destination({ dest: 2, sync: true }) },
      ],
      { dedupe: true },
    );
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => scrub(fields, 0) as Record<string, unknown>,
      },
      hooks: {
        // The message (and any format arguments) get the same masking as field values.
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === "string" ? scrubText(a) : a)) as typeof args;
          return method.apply(this, scrubbed);
        },
      },
    },
    stream,
  );
  if (stdout) stdoutOf.set(logger, stdout);
  return logger;
}

const globalForLog = globalThis as unknown as { parLogger?: Logger };

function logger(): Logger {
  globalForLog.parLogger ??= createLogger();
  return globalForLog.parLogger;
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  const target = logger();
  // A level that is off costs one check: no call into pino, no empty fields object.
  if (target.isLevelEnabled(level)) target[level](fields ?? {}, msg);
}

/** One API request, as the access log records it. */
export interface RequestLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  subject?: string | undefined;
  /** The X-Request-ID the client sent (the server's own id is `requestId`). */
  clientRequestId?: string | null | undefined;
}

const quoted = (text: string) => JSON.stringify(scrubText(text));

/**
 * The access log's line for one request, at info. It is the line written most (one per request), and pino's
 * generic path for it (hooks, the fields' walk, multistream) cost ~30 µs of a request's CPU
 * (docs/performance.md). So it is written here as pino writes it (the same keys in the same order, its text
 * masked the same way) straight to the logger's standard output. A logger writing elsewhere (tests) gets it
 * through pino.
 */
function request(line: RequestLine): void {
  const target = logger();
  if (!target.isLevelEnabled("info")) return;
  const stdout = stdoutOf.get(target);
  if (!stdout) {
    const { requestId, clientRequestId, ...rest } = line;
    target.info(
      clientRequestId ? { requestId, clientRequestId, ...rest } : { requestId, ...rest },
      "request",
    );
    return;
  }
  const subject = line.subject === undefined ? "" : `,"subject":${quoted(line.subject)}`;
  const clientId = line.clientRequestId ? `,"clientRequestId":${quoted(line.clientRequestId)}` : "";
  stdout.write(
    `{"level":"info","time":"${new Date().toISOString()}","pid":${process.pid},"requestId":${quoted(line.requestId)}${clientId},"method":${quoted(line.method)},"route":${quoted(line.route)},"status":${Number(line.status)},"durationMs":${Number(line.durationMs)}${subject},"msg":"request"}\n`,
  );
}

export const log = {
  request,
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
  /** Whether a line at `level` would be written: callers on the request path skip building its fields. */
  enabled: (level: Level) => logger().isLevelEnabled(level),
};

export function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return {
      error: error.name,
      message: error.message,
      stack: error.stack?.split("\n").slice(0, 6).join("\n"),
    };
  }
  return { error: String(error) };
}
