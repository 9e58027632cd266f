import { shutdownAuditQueue } from "@/platform/audit/audit-recorder";
import { demoUsersWarning } from "@/platform/auth/auth-options";
import { missingSessionSecret } from "@/platform/auth/secrets";
import { getEnv } from "@/platform/env/env";
import { installProtocolGuard } from "@/platform/http/protocol-guard";
import { getRateLimiter } from "@/platform/http/rate-limit";
import { installRequestStamp, isRequestStampPreloaded } from "@/platform/http/request-stamp.mjs";
import { closeAllEventStreams } from "@/platform/http/sse-response";
import { installUpgradeGuard } from "@/platform/http/upgrade-guard.mjs";
import { describeError, log } from "@/platform/log/log";
import { checkDatabaseRoleAtStart } from "./database-role-check.ts";

/** Logged when the server was started some other way than `npm start` / `npm run dev` (scripts/serve.mjs). */
export const NOT_PRELOADED_WARNING =
  "The server was started without scripts/serve.mjs (npm start): requests that arrived before this line got no security headers and no request stamp. Start it with npm start.";

/** The startup message for demo authentication; kept here so tests can look for it. */
export const DEMO_AUTH_WARNING =
  "AUTH_MODE=demo: any non-empty access token is accepted (with read and PII scopes). Never use demo authentication with real player data; set AUTH_MODE=jwt.";

/**
 * Runs once when the Next.js server process starts (instrumentation.ts): refuses to start on an invalid
 * configuration, warns about demo authentication, refuses (`next start`) or warns about a database role that
 * could rewrite the audit trail (database-role-check.ts), stamps requests with the peer address and the security
 * headers unless scripts/serve.mjs did so before Next.js started (platform/runtime/server-preload.mjs), answers
 * methods and malformed requests no route handles (protocol-guard.ts), and on
 * SIGTERM/SIGINT drains the audit queue. Next.js itself stops accepting connections on those signals,
 * lets in-flight requests finish, each answering only once its audit row is committed, before exiting.
 */
/** A long-lived feature the server starts with its database and stops on a signal (the live player feed). */
export interface ServerFeed {
  start(): void;
  stop(): Promise<void>;
}

export async function registerServerHooks(options: { feeds: readonly ServerFeed[] }): Promise<void> {
  let env: ReturnType<typeof getEnv>;
  try {
    env = getEnv();
    // No per-process random session secret on a server: sign-ins would not survive a restart or another instance.
    const missing = missingSessionSecret(env);
    if (missing) throw new Error(missing);
  } catch (error) {
    log.error("refusing to start", describeError(error));
    process.exit(1);
  }
  if (env.AUTH_MODE === "demo") log.warn(DEMO_AUTH_WARNING);
  const demoUsers = demoUsersWarning();
  if (demoUsers) log.warn(demoUsers);
  log.info("server configuration", {
    authMode: env.AUTH_MODE,
    rateLimit: env.RATE_LIMIT_MAX === 0 ? "off" : `${env.RATE_LIMIT_MAX}/${env.RATE_LIMIT_WINDOW_SECONDS}s`,
    rateLimitStore: env.RATE_LIMIT_MAX === 0 ? null : env.REDIS_URL ? "redis" : "memory",
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    trustedProxies: env.TRUSTED_PROXIES || "none",
  });
  if (!isRequestStampPreloaded()) {
    installRequestStamp();
    log.warn(NOT_PRELOADED_WARNING);
  }
  // Idempotent: in place already when preloaded; otherwise from here on, Upgrade requests are answered and closed.
  installUpgradeGuard();
  installProtocolGuard();
  // Connect to Redis now, so the first requests are already counted in the shared store.
  getRateLimiter();

  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    // Open event streams would keep Next.js waiting for their responses to end: end them now (the pages reconnect
    // to another instance), and close the LISTEN connection.
    closeAllEventStreams();
    for (const feed of options.feeds) void feed.stop().catch(() => {});
    void shutdownAuditQueue().catch((error) => log.error("audit drain failed", describeError(error)));
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  // Next.js serves no request before this resolves. Without DATABASE_URL there is nothing to check (a build).
  if (env.DATABASE_URL) {
    await checkDatabaseRoleAtStart({
      production: process.env.NODE_ENV === "production",
      allowPrivileged: env.DB_ALLOW_PRIVILEGED_ROLE === "on",
      refuse: () => process.exit(1),
    });
    // Start listening for player changes now, so the first page's stream finds the feed's state known.
    for (const feed of options.feeds) feed.start();
  }
}
