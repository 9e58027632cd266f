/*
 * How the benchmarks run the product: as it is deployed, with every protection on. Verified tokens
 * (AUTH_MODE=jwt, HS256, bound to their session), a caller without players:pii (its profiles come back masked),
 * the rate limiter in the path (a quota far above the load, so it counts but never refuses), audit rows written
 * to the database, the access log at its default level (one JSON line per request, written to a file as a log
 * shipper would read it) and the security headers. Demo authentication or LOG_LEVEL=warn would leave work out
 * that a deployment does on every request.
 */
import { SignJWT } from "jose";
import { DEMO_REFERENCE_NOW } from "../../prisma/demo-data/clock.ts";
import { BENCH_BOOK_MANAGER } from "../data/generate-dataset.ts";

/** Generated histories end at the demo's "now": the portfolio's windows end there too, so they hold data. */
export const BENCH_AS_OF = new Date(DEMO_REFERENCE_NOW).toISOString();

/** Signs the benchmark's tokens only; a benchmark server never holds real data. */
export const BENCH_JWT_SECRET = "benchmark-only-signing-secret-not-for-any-deployment-0123456789";
export const BENCH_SESSION_ID = "bench-session-1";
const BENCH_MANAGER_SUBJECT = "bench-vip-manager";
/** Longer than any benchmark run, shorter than the product's default maximum token lifetime (86,400 s). */
const TOKEN_LIFETIME_S = 12 * 3600;

/** The product's environment for a benchmark against `databaseUrl` (plus what startApp adds). */
export function productBenchEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    AUTH_MODE: "jwt",
    AUTH_JWT_SECRET: BENCH_JWT_SECRET,
    // The limiter runs on every request; its quota is far above what one benchmark caller sends.
    RATE_LIMIT_MAX: "1000000000",
    // The bench is one caller running 32 exports at once; the per-caller cap would refuse most of them.
    EXPORT_PER_CALLER: "100",
    LOG_LEVEL: "info",
    PORTFOLIO_AS_OF: BENCH_AS_OF,
    // The portfolio scenario's caller (benchManagerHeaders) is the manager of db:generate's benchmark book.
    VIP_MANAGER_SUBJECTS: JSON.stringify({ [BENCH_MANAGER_SUBJECT]: BENCH_BOOK_MANAGER }),
  };
}

/** A support agent's token as the back office issues them: `sub`, `name`, `sid` and the players:read scope. */
export async function benchToken(now = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({ name: "Bench Agent", sid: BENCH_SESSION_ID, scope: "players:read" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject("bench-support-agent")
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_S)
    .sign(new TextEncoder().encode(BENCH_JWT_SECRET));
}

/** The request headers of every benchmark request to the product (the floor and the baseline ignore them). */
export async function benchHeaders(): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await benchToken()}`, "x-session-id": BENCH_SESSION_ID };
}

/** The bulk scenario's caller: a machine client granted transactions:bulk by its token's scope (a client id, no user). */
export async function benchBulkHeaders(now = Math.floor(Date.now() / 1000)): Promise<Record<string, string>> {
  const token = await new SignJWT({
    sid: BENCH_SESSION_ID,
    scope: "transactions:bulk",
    client_id: "bench-copy",
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject("bench-copy")
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_S)
    .sign(new TextEncoder().encode(BENCH_JWT_SECRET));
  return { authorization: `Bearer ${token}`, "x-session-id": BENCH_SESSION_ID };
}

/**
 * The portfolio scenario's caller: the VIP manager of db:generate's benchmark book, reading their own book (a
 * support agent may not read portfolios). Their role adds players:pii, as the back office's tokens for them do.
 */
export async function benchManagerHeaders(
  manager: string,
  now = Math.floor(Date.now() / 1000),
): Promise<Record<string, string>> {
  const token = await new SignJWT({ name: manager, sid: BENCH_SESSION_ID, roles: ["vip_manager"] })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(BENCH_MANAGER_SUBJECT)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_S)
    .sign(new TextEncoder().encode(BENCH_JWT_SECRET));
  return { authorization: `Bearer ${token}`, "x-session-id": BENCH_SESSION_ID };
}
