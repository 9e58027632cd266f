import pino, { type DestinationStream, type Logger } from "pino";

/*
 * Structured JSON log lines (pino): info and debug on stdout, warnings and errors on stderr.
 * Never pass player e-mail or phone here. As a second line of defence, keys that name secrets or contact
 * data are redacted and string values that look like e-mail addresses, phone numbers, bearer tokens or
 * JWTs are masked before a line is written.
 */

type Level = "debug" | "info" | "warn" | "error";
const LEVELS = new Set(["debug", "info", "warn", "error", "silent"]);

const SENSITIVE_KEYS = [
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
];

// fast-redact paths: top level, one level and two levels deep (e.g. `headers.authorization`).
const REDACT_PATHS = SENSITIVE_KEYS.flatMap((k) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`;
  const sep = key.startsWith("[") ? "" : ".";
  return [key, `*${sep}${key}`, `*.*${sep}${key}`];
});

/*
 * Masking runs on client-chosen text (request paths) before authentication, so every pattern must cost time
 * linear in the text's length: a pattern that may start at every character of a long run and scan to the
 * run's end is quadratic (a 15,000-character path of letters took ~0.1 s per log line with
 * `[…]+@…`). Hence the e-mail parts are bounded by RFC 5321's lengths (local part ≤ 64, label ≤ 63), and a
 * JWT is any word starting with a JSON header (`eyJ`) with whatever dotted segments follow: such a match
 * never fails part-way, so nothing is rescanned. Held by request-path-cost.test.ts.
 */
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g;
const PHONE = /\+\d[\d ().-]{6,}\d/g;
const BEARER = /\b(bearer)\s+[\w.~+/=-]+/gi;
const JWT = /\beyJ[\w-]+(?:\.[\w-]*)*/g;

/** Longer text is cut (after masking) so that a client cannot make one log line as long as it likes. */
export const MAX_LOGGED_TEXT = 2_048;

export function scrubText(text: string): string {
  const masked = text
    .replace(BEARER, "$1 [redacted]")
    .replace(JWT, "[jwt]")
    .replace(EMAIL, "[email]")
    .replace(PHONE, "[phone]");
  return masked.length <= MAX_LOGGED_TEXT
    ? masked
    : `${masked.slice(0, MAX_LOGGED_TEXT)}…[${masked.length - MAX_LOGGED_TEXT} more characters]`;
}

function scrub(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  // Errors and other class instances are left to pino's serializers.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
  return out;
}

function levelFromEnv(): string {
  const level = process.env.LOG_LEVEL ?? "info";
  return LEVELS.has(level) ? level : "info";
}

/** A logger writing to `destination` (tests), or to stdout/stderr split by level. */
export function createLogger(destination?: DestinationStream, level = levelFromEnv()): Logger {
  const stream =
    destination ??
    pino.multistream(
      [
        { level: "debug", stream: process.stdout },
        { level: "warn", stream: process.stderr },
      ],
      { dedupe: true },
    );
  return pino(
    {
      level,
      base: { pid: process.pid },
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => scrub(fields, 0) as Record<string, unknown>,
      },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
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

export const log = {
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
