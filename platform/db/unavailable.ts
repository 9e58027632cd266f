/*
 * Which errors mean "the database cannot serve right now" (down, unreachable, restarting, overloaded,
 * or a statement over its timeout): the API answers those with 503 and Retry-After, and the audit queue
 * retries them, instead of treating them as bugs.
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "57014", // statement_timeout: the database is too slow right now
  "57P01",
  "57P02",
  "57P03",
  "53300", // too many connections
  "08000",
  "08001",
  "08003",
  "08006",
]);

/** One error as the checks read it: its code, the driver's original code and its message. */
export interface ErrorLink {
  code?: unknown;
  originalCode?: unknown;
  message?: unknown;
}

/**
 * An error and everything along its causes, each once: Prisma wraps driver errors
 * (PrismaClientKnownRequestError.meta.driverAdapterError.cause.code).
 */
export function* errorChain(error: unknown): Generator<ErrorLink> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const e = current as ErrorLink & { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    queue.push(e.cause, e.meta?.driverAdapterError);
    yield e;
  }
}

/** Connection-level failures (server down, refused, timed out) and statement timeouts are a 503, not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const code = typeof e.code === "string" ? e.code : "";
    if (UNAVAILABLE_CODES.has(code)) {
      return true;
    }
    if (
      typeof e.message === "string" &&
      /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|DatabaseNotReachable|Can't reach database|Query read timeout|statement timeout|canceling statement due to|terminating connection|the database system is (?:starting up|shutting down)|Client has encountered a connection error/i.test(
        e.message,
      )
    ) {
      return true;
    }
  }
  return false;
}
