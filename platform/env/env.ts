import { z } from "zod";
import { parseRateLimits } from "../http/rate-limit-grammar.ts";
import { invalidProxyEntries } from "../http/trusted-proxies.mjs";
import { checkNatsCredentials, natsConnectionShape } from "./nats-settings.ts";

/** HS256 needs a key at least as long as its hash (RFC 7518 §3.2). */
export const MIN_JWT_SECRET_BYTES = 32;

const vipManagerSubjectsSchema = z.record(z.string().trim().min(1), z.string().trim().min(1).max(200));

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How much the JSON logger (platform/log/log.ts) writes: a setting of every process that logs through it. */
export const logLevelSetting = z.enum(["debug", "info", "warn", "error", "silent"]).default("info");

// The web app's settings: Next.js's server and its launcher's (scripts/serve*). Validated once per process; every
// module reads configuration from here, never from process.env directly.
const envSchema = z
  .object({
    DATABASE_URL: z.string().min(1).optional(),
    /** The embedded database's data folder (scripts/serve-embedded.ts); without it .data/pglite. */
    EMBEDDED_DB_DIR: z.string().min(1).optional(),
    /** The HTTP port: Next.js reads it, and the problem types' fallback origin (platform/problems/problem-types.mjs). */
    PORT: z
      .string()
      .regex(/^\d{0,5}$/, { message: "must be a port number" })
      .optional(),
    /** Node.js's own; `npm start` adds a heap cap unless it names one (scripts/next-start-settings.mjs). */
    NODE_OPTIONS: z.string().optional(),
    /** next-auth's own (URLs from the request's host); the launcher sets it without NEXTAUTH_URL. */
    AUTH_TRUST_HOST: z.string().optional(),
    // No default on purpose: see the refinement below.
    AUTH_MODE: z.enum(["demo", "jwt"]).optional(),
    /**
     * The shared secret of HS256/384/512 tokens (the ones the back office issues to signed-in users, and any
     * caller's). Tokens are verified with it only when it is set: the launcher generates one for the embedded
     * quick start alone (no DATABASE_URL, AUTH_MODE not jwt), never for a deployment on the operator's database.
     * At least 32 bytes: a shorter HMAC key can be brute-forced from one captured token.
     */
    AUTH_JWT_SECRET: z
      .string()
      .refine((s) => new TextEncoder().encode(s).length >= MIN_JWT_SECRET_BYTES, {
        message: `must be at least ${MIN_JWT_SECRET_BYTES} bytes (an HMAC key shorter than its hash can be brute-forced from one token); e.g. \`openssl rand -base64 48\``,
      })
      .optional(),
    /** An identity provider's key set (asymmetric tokens). Requires AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE. */
    AUTH_JWKS_URL: z.url().optional(),
    AUTH_JWT_ISSUER: z.string().min(1).optional(),
    /** Tokens must name it in `aud`: a token the provider issued to another client is refused. */
    AUTH_JWT_AUDIENCE: z.string().min(1).optional(),
    AUTH_JWT_ALGORITHMS: z.string().optional(),
    /**
     * Longest accepted token lifetime (exp − iat, or exp − now without iat); a token minted for longer is
     * refused, so a leaked long-lived token is not a standing credential.
     */
    AUTH_MAX_TOKEN_LIFETIME_SECONDS: z.coerce.number().int().min(60).max(2_592_000).default(86_400),
    /**
     * Back-office sign-in (next-auth) session secret. Required: the launcher generates it only for the embedded
     * quick start (.data/auth-secrets.json); outside it the server refuses to start without it (platform/auth/secrets.ts).
     */
    NEXTAUTH_SECRET: z.string().min(1).optional(),
    AUTH_SECRET: z.string().min(1).optional(),
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_NAME: z.string().min(1).default("Single sign-on"),
    /** The scopes sign-in asks for; add `offline_access` where the provider issues refresh tokens only then. */
    OIDC_SCOPE: z
      .string()
      .regex(/(^|\s)openid(\s|$)/, { message: "must include `openid`" })
      .default("openid email profile"),
    AUTH_DEMO_USERS: z.enum(["on", "off"]).optional(),
    /** This site's public URL (next-auth reads it too); sign-out sends the provider back to its sign-in page. */
    NEXTAUTH_URL: z.url().optional(),
    /**
     * The origin clients reach this service at (scheme, host, port; no path), e.g. `https://players.example.com`.
     * Problem types are absolute URIs under it (`<origin>/problems/<slug>`, each a page describing the type); without
     * it NEXTAUTH_URL's origin, else `http://localhost:<PORT or 3000>` (platform/problems/problem-types.mjs).
     */
    PUBLIC_ORIGIN: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. https://players.example.com" })
      .refine(
        (value) => {
          const url = new URL(value);
          return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
        },
        { message: "must be an origin only (scheme, host, port): no path, query, fragment or credentials" },
      )
      .optional(),
    /**
     * The OAuth 2.0 token endpoint machine clients get access tokens from (client credentials), published in the
     * OpenAPI document's `oauth2` scheme (platform/openapi/security.ts). Without it, `<AUTH_JWT_ISSUER>/token` when
     * the issuer is a URL (oidc-provider's default path; other providers differ: read `token_endpoint` from the
     * issuer's `/.well-known/openid-configuration` and set this), else `https://token-url-not-configured.invalid/token`.
     */
    OAUTH_TOKEN_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL of the token endpoint" })
      .optional(),
    /** Whom a signed-in user without a role should ask for one (shown on the no-role page). */
    AUTH_ACCESS_CONTACT: z.string().min(1).max(200).optional(),
    /** Failed sign-ins allowed per account and per address in a window, before 429. */
    AUTH_SIGNIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(10),
    AUTH_SIGNIN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    AUTH_ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(3600).default(300),
    /** A sign-in session's absolute lifetime: activity never extends it (platform/auth/session-store.ts). */
    AUTH_SESSION_MAX_AGE_SECONDS: z.coerce.number().int().min(10).max(604_800).default(43_200),
    /** How often a signed-in user's roles are re-read from the identity provider (refresh or userinfo). */
    AUTH_ROLE_RECHECK_SECONDS: z.coerce.number().int().min(5).max(3600).default(900),
    /**
     * How long an instance trusts its last look at a session (revoked, expired, role) before reading the table
     * again: the delay before another instance sees a sign-out. 0 reads the table on every check.
     */
    AUTH_SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /**
     * A hot standby of DATABASE_URL's server (the same database): player, transaction, search, facet, summary and
     * export reads go there while it streams within REPLICA_MAX_LAG_MS (platform/db/read-router.ts); audit stays on
     * the primary.
     */
    DATABASE_REPLICA_URL: z
      .string()
      .min(1)
      .refine((value) => /^postgres(?:ql)?:\/\//.test(value), {
        message: "must be a postgresql:// URL (a hot standby of DATABASE_URL's server)",
      })
      .optional(),
    /** Reads leave the standby when its replay is further behind the primary than this (LSN-based). */
    REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /**
     * `on`: start even when the database role could rewrite the audit trail (a superuser, the tables' owner; see
     * platform/db/database-role.ts), with a warning at every start. Otherwise `next start` refuses such a role.
     */
    DB_ALLOW_PRIVILEGED_ROLE: z.enum(["on", "off"]).default("off"),
    /** Server-side cap on every SQL statement (PostgreSQL statement_timeout). */
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /** How long to wait for a new database connection before answering 503. */
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
    /** Exports streaming at once per process (default: half the pool); the others wait for a slot. */
    EXPORT_CONCURRENCY: z.coerce.number().int().min(1).max(100).optional(),
    /** How long an export waits for a slot before answering 503. */
    EXPORT_QUEUE_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
    /** Exports one caller (token subject, else client address) may run at once; beyond it 429. */
    EXPORT_PER_CALLER: z.coerce.number().int().min(1).max(100).default(2),
    /** An export whose client takes no data for this long is cut, freeing its slot. */
    EXPORT_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(900_000).default(30_000),
    /**
     * `on` (default): pages get a nudge over Server-Sent Events when a player's data changes (PostgreSQL NOTIFY on
     * `player_changes`, sent by the ingest consumer); `off`: no LISTEN connection, the pages work as before.
     */
    LIVE_UPDATES: z.enum(["on", "off"]).default("on"),
    /** Live-update streams one caller (token subject, else client address) may hold open at once; beyond it 429. */
    LIVE_STREAMS_PER_CALLER: z.coerce.number().int().min(1).max(100).default(8),
    /** Live-update streams a process holds open at once; beyond it 503. */
    LIVE_MAX_STREAMS: z.coerce.number().int().min(1).max(100_000).default(1_000),
    /**
     * A stream ends after this long and the page opens a new one: its token is checked again (a signed-out
     * session or an expired token stops getting nudges) and the new stream is audited.
     */
    LIVE_STREAM_MAX_SECONDS: z.coerce.number().int().min(5).max(3_600).default(300),
    LOG_LEVEL: logLevelSetting,
    /** Requests per caller per window; 0 turns rate limiting off. */
    RATE_LIMIT_MAX: z.coerce.number().int().min(0).max(1_000_000_000).default(600),
    RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    /**
     * Per-client quotas above (or below) the default: `client:crm-sync=50:1000,role:admin=20:600`, each a
     * token bucket of BURST requests refilled at RATE per second (platform/http/rate-limit-grammar.ts).
     */
    RATE_LIMITS: z
      .string()
      .optional()
      .transform((text, ctx) => {
        const { policies, errors } = parseRateLimits(text);
        for (const message of errors) ctx.addIssue({ code: "custom", message });
        return policies;
      }),
    /** Shares rate-limit counters between instances; without it they are per process. */
    REDIS_URL: z.string().min(1).optional(),
    REDIS_KEY_PREFIX: z.string().max(100).default("par:"),
    /**
     * The NATS server whose stream WALLET feeds the read model (npm run ingest). The web server uses it only for
     * /api/health/ingest's lag (the consumer's num_pending); without it that lag is reported as unknown.
     */
    NATS_URL: z.string().min(1).optional(),
    /** Who /api/health/ingest is at that server (platform/env/nats-settings.ts). */
    ...natsConnectionShape,
    /** The durable consumer whose lag /api/health/ingest reports (npm run ingest's INGEST_CONSUMER). */
    INGEST_CONSUMER: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default("read-model"),
    /**
     * Where `npm start` / `npm run dev` listen (scripts/serve-hostname.mjs): demo mode listens on 127.0.0.1 without
     * it, elsewhere Next.js's default (every interface) stands. In demo mode also a host name the server answers.
     */
    LISTEN_HOST: z
      .union([z.ipv4(), z.ipv6(), z.hostname()], {
        error: "must be an IP address or a host name, e.g. 0.0.0.0, ::1 or 127.0.0.1 (no brackets, no port)",
      })
      .optional(),
    /**
     * The reverse proxies in front of the app (addresses or CIDR networks, comma-separated): only on a connection
     * from one of them are X-Forwarded-For (the client address) and X-Forwarded-Host (next-auth's URLs) believed
     * (platform/http/trusted-proxies.mjs). Empty: nobody speaks for the client.
     */
    TRUSTED_PROXIES: z
      .string()
      .default("")
      .superRefine((value, ctx) => {
        const invalid = invalidProxyEntries(value);
        if (invalid.length) {
          ctx.addIssue({
            code: "custom",
            message: `not an IP address or CIDR network: ${invalid.map((e) => JSON.stringify(e)).join(", ")} (e.g. 127.0.0.2 or 10.0.0.0/8, comma-separated)`,
          });
        }
      }),
    /** Replaced by TRUSTED_PROXIES (a hop count trusted any peer): refused, see the refinement below. */
    TRUST_PROXY: z.string().optional(),
    AUDIT_BATCH_SIZE: z.coerce.number().int().min(1).max(5_000).default(500),
    /** Reads waiting for their audit rows beyond which further reads answer 503 at once. */
    AUDIT_MAX_PENDING: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    /**
     * `on`: an answer waits until its audit row is flushed to the database's WAL. `off`: until it is committed
     * (safe against any crash of the app; a crash of the database server can lose the last ~0.6 s). docs/trust.md.
     */
    AUDIT_SYNCHRONOUS_COMMIT: z.enum(["on", "off"]).default("on"),
    /** On shutdown, how long to wait for the audit rows of the reads still in flight. */
    AUDIT_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
    /**
     * The portfolio's flags (features/<name>/data/portfolio-flags.ts, docs/decisions.md). Churn risk: a player with
     * transactions whose last one is at least this many UTC days before the portfolio's day.
     */
    PORTFOLIO_CHURN_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
    /**
     * Big withdrawal, by amount: per currency, `EUR:5000,USD:5000,BTC:0.1`. A withdrawal in the last 7 days above
     * its currency's amount trips the flag; a currency not listed has no amount rule (the share rule still applies).
     */
    PORTFOLIO_BIG_WITHDRAWAL_AMOUNTS: z
      .string()
      .regex(/^\s*([A-Za-z]{3,10}:\d{1,12}(\.\d{1,8})?\s*(,\s*|$))*$/, {
        message: "must be a comma-separated list of CURRENCY:amount, e.g. EUR:5000,USD:5000,BTC:0.1",
      })
      .default("EUR:5000,USD:5000,GBP:4000,CAD:7000,SEK:50000,NOK:50000,BRL:25000,JPY:750000,BTC:0.1,ETH:2"),
    /** Big withdrawal, by share: above this percentage of what the player held (balance now plus the withdrawal). */
    PORTFOLIO_BIG_WITHDRAWAL_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
    /** Deposit spike: deposits of the last 7 days above this many times the player's usual week. */
    PORTFOLIO_DEPOSIT_SPIKE_FACTOR: z.coerce.number().int().min(2).max(100).default(3),
    /**
     * At most how many statements compute one portfolio at once, each a share of the book on its own connection:
     * about the database server's cores a single request may use. A book is split only while the process computes
     * no other (features/portfolio/data/get-portfolio.ts). 1: one statement.
     */
    PORTFOLIO_BOOK_PARTS: z.coerce.number().int().min(1).max(16).default(2),
    /**
     * How many books (the most recently read) the process keeps computed, so that a re-read computes only the
     * players that changed since (features/portfolio/data/portfolio-book-cache.ts). 0: every read computes the whole book.
     */
    PORTFOLIO_KEPT_BOOKS: z.coerce.number().int().min(0).max(10_000).default(50),
    /**
     * The instant the portfolio's windows end at (ISO 8601); the server's clock without it. The embedded demo sets
     * it to the demo data's "now" (prisma/demo-data/clock.ts), whose history ends there.
     */
    PORTFOLIO_AS_OF: z.iso.datetime({ offset: true }).optional(),
    /**
     * Which signed-in people are which VIP manager: a JSON object from a token's `sub` (the identity provider's
     * stable id of the person) to the manager's name as the profiles' `vip_manager` holds it,
     * `{"00u8f3k2":"Sarah Mitchell"}`. Books are keyed on it, never on the token's editable `name`
     * (platform/auth/vip-managers.ts).
     */
    VIP_MANAGER_SUBJECTS: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined || text.trim() === "") return {};
        const parsed = vipManagerSubjectsSchema.safeParse(jsonOrUndefined(text));
        if (parsed.success) return parsed.data;
        ctx.addIssue({
          code: "custom",
          message:
            'must be a JSON object of token subjects to manager names, e.g. {"00u8f3k2":"Sarah Mitchell"}',
        });
        return z.NEVER;
      }),
  })
  .superRefine((env, ctx) => {
    checkNatsCredentials(env, ctx);
    // A hop count believed X-Forwarded-For from whoever connected, a client reaching an instance directly
    // included. Refused rather than ignored: ignoring it would silently record the proxy as every client.
    if (env.TRUST_PROXY !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["TRUST_PROXY"],
        message:
          "TRUST_PROXY is replaced by TRUSTED_PROXIES: list the addresses (or CIDR networks) of the reverse proxies in front of the app, e.g. TRUSTED_PROXIES=10.0.0.5, and unset TRUST_PROXY",
      });
    }
    if (env.DATABASE_REPLICA_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_REPLICA_URL"],
        message:
          "is a standby of DATABASE_URL's server: set DATABASE_URL too (the embedded database has no standby)",
      });
    }
    if (env.DATABASE_URL && !env.AUTH_MODE) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_MODE"],
        message:
          "DATABASE_URL is set, so AUTH_MODE must be chosen explicitly: `jwt` (verified tokens) or `demo` (accepts any bearer token; never for real data)",
      });
    }
    if (env.AUTH_MODE === "jwt" && !env.AUTH_JWT_SECRET && !env.AUTH_JWKS_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_MODE"],
        message: "AUTH_MODE=jwt needs AUTH_JWT_SECRET or AUTH_JWKS_URL",
      });
    }
    // Without both, any token the provider signs (an ID token for another client, another tenant's) is accepted.
    if (env.AUTH_JWKS_URL) {
      for (const name of ["AUTH_JWT_ISSUER", "AUTH_JWT_AUDIENCE"] as const) {
        if (!env[name]) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `AUTH_JWKS_URL is set, so ${name} is required: without it tokens the provider issued to other clients or issuers are accepted`,
          });
        }
      }
    }
    // The back office's own ID tokens name its client id in `aud`: with that audience the API would take an ID token
    // (roles in it, no session, valid after sign-out) as an access token.
    if (env.AUTH_JWT_AUDIENCE && env.AUTH_JWT_AUDIENCE === env.OIDC_CLIENT_ID) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_JWT_AUDIENCE"],
        message:
          "AUTH_JWT_AUDIENCE equals OIDC_CLIENT_ID: the API would accept the back office's ID tokens as access tokens. Give the API an audience of its own (the resource or API identifier your identity provider puts in access tokens, e.g. `player-account-read-api`)",
      });
    }
    // The back office's signed-in users call the API with HS256 tokens signed with AUTH_JWT_SECRET: without it,
    // in jwt mode, every read of theirs would be refused. Say so at start rather than after sign-in.
    if (
      env.AUTH_MODE === "jwt" &&
      !env.AUTH_JWT_SECRET &&
      (env.OIDC_ISSUER || env.AUTH_DEMO_USERS === "on")
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_JWT_SECRET"],
        message:
          "sign-in is configured (OIDC_ISSUER or AUTH_DEMO_USERS=on) but AUTH_JWT_SECRET is not: in AUTH_MODE=jwt the API accepts the back office's tokens only when they are signed with an explicit AUTH_JWT_SECRET (at least 32 bytes)",
      });
    }
  })
  // Without a database URL the launcher starts the embedded demo database: demo auth is the only sensible mode.
  .transform((env) => ({ ...env, AUTH_MODE: env.AUTH_MODE ?? ("demo" as const) }));

export type Env = z.output<typeof envSchema>;

/** Every setting the web app reads (docs/configuration.md lists each with the process `app`). */
export const APP_SETTINGS = Object.keys(envSchema.in.shape) as readonly (keyof typeof envSchema.in.shape)[];

/**
 * Settings read from an environment by `schema` (the app's, the ingest consumer's, the webhook dispatcher's);
 * else one readable error, `heading` then every problem on a line of its own.
 */
export function parseSettings<T>(
  schema: z.ZodType<T>,
  source: Record<string, string | undefined>,
  heading: string,
): T {
  const parsed = schema.safeParse(source);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "environment"}: ${i.message}`);
  throw new Error(`${heading}:\n  - ${problems.join("\n  - ")}`);
}

/** Validates an environment; throws one readable message naming every problem. */
export const parseEnv = (source: Record<string, string | undefined>): Env =>
  parseSettings(envSchema, source, "Invalid environment configuration");

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change the environment between cases; they call this to re-read it. */
export function resetEnvCache(): void {
  cached = undefined;
}
