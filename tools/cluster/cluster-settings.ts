/*
 * The settings of `npm run cluster:up|down|status|bench` (tools/cluster/cluster.ts), from the environment. The
 * instances' own settings (AUTH_MODE, secrets, …) are the app's (docs/configuration.md); these say how many run,
 * where, and what they share.
 */
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

const port = z.coerce.number().int().min(1).max(65_535);
const address = z.string().refine((value) => isIP(value) !== 0, { message: "must be an IP address" });

const clusterEnvSchema = z.object({
  /** Where HAProxy listens for clients. */
  CLUSTER_PORT: port.default(8080),
  CLUSTER_HOST: address.default("127.0.0.1"),
  /** App instances behind it. */
  CLUSTER_INSTANCES: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * The port the first instance's Next.js is told; the others follow it. Default: CLUSTER_PORT + 1. None is opened:
   * instance-listen.mjs moves that listen to the instance's Unix socket.
   */
  CLUSTER_APP_PORT: port.optional(),
  /** The instances' TRUSTED_PROXIES: the peer address their sockets' connections get (HAProxy's source on TCP). */
  CLUSTER_PROXY_SOURCE: address.default("127.0.0.2"),
  /** Pid files, logs, the rendered HAProxy config and the generated secrets. */
  CLUSTER_STATE_DIR: z.string().min(1).default(".data/cluster"),
  /** The database of the cluster's own (created, migrated and seeded once) when DATABASE_URL is not set. */
  CLUSTER_DATABASE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, { message: "lower-case letters, digits and _" })
    .default("par_cluster"),
  /** The server CLUSTER_DATABASE is made on (a superuser's URL of any database there). */
  CLUSTER_POSTGRES_ADMIN_URL: z.string().min(1).default("postgresql://postgres@127.0.0.1:5432/postgres"),
  DATABASE_URL: z.string().min(1).optional(),
  REDIS_URL: z.string().min(1).default("redis://127.0.0.1:6379"),
  REDIS_KEY_PREFIX: z.string().max(100).default("par-cluster:"),
  AUTH_MODE: z.enum(["demo", "jwt"]).optional(),
  /** `on`: make a streaming standby of the database's server (tools/cluster/replica.ts) and read from it. */
  CLUSTER_REPLICA: z.enum(["on", "off"]).default("off"),
});

export interface ClusterSettings {
  port: number;
  host: string;
  instances: number;
  /** One port per instance, consecutive: what each instance's Next.js is told, not opened (instance-listen.mjs). */
  appPorts: number[];
  proxySource: string;
  stateDir: string;
  /** The database every instance uses. */
  databaseUrl: string;
  /** True when databaseUrl is the cluster's own database (cluster:up prepares it); false: the operator's. */
  ownDatabase: boolean;
  databaseName: string;
  adminUrl: string;
  redisUrl: string;
  redisKeyPrefix: string;
  /**
   * Demo authentication on the cluster's own demo database unless AUTH_MODE says otherwise; on the operator's
   * database whatever AUTH_MODE says (unset: the instances refuse to start, as `npm start` does).
   */
  authMode: "demo" | "jwt" | undefined;
  /** Whether cluster:up makes a hot standby (REPLICA_* settings, its primary CLUSTER_POSTGRES_ADMIN_URL's server). */
  replica: boolean;
}

/** Environment → settings; throws one readable message naming every bad variable. */
export function readClusterSettings(
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): ClusterSettings {
  const parsed = clusterEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid cluster configuration:\n  - ${problems.join("\n  - ")}`);
  }
  const e = parsed.data;
  const first = e.CLUSTER_APP_PORT ?? e.CLUSTER_PORT + 1;
  const appPorts = Array.from({ length: e.CLUSTER_INSTANCES }, (_, i) => first + i);
  if (appPorts.includes(e.CLUSTER_PORT) || (appPorts.at(-1) ?? 0) > 65_535) {
    throw new Error(
      `Invalid cluster configuration:\n  - CLUSTER_APP_PORT: the instances' ports ${appPorts[0]}–${appPorts.at(-1)} must not include CLUSTER_PORT (${e.CLUSTER_PORT}) and must be ports`,
    );
  }
  const adminUrl = new URL(e.CLUSTER_POSTGRES_ADMIN_URL);
  const ownUrl = new URL(adminUrl);
  ownUrl.pathname = `/${e.CLUSTER_DATABASE}`;
  return {
    port: e.CLUSTER_PORT,
    host: e.CLUSTER_HOST,
    instances: e.CLUSTER_INSTANCES,
    appPorts,
    proxySource: e.CLUSTER_PROXY_SOURCE,
    stateDir: path.resolve(cwd, e.CLUSTER_STATE_DIR),
    databaseUrl: e.DATABASE_URL ?? ownUrl.toString(),
    ownDatabase: e.DATABASE_URL === undefined,
    databaseName: e.CLUSTER_DATABASE,
    adminUrl: adminUrl.toString(),
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    authMode: e.AUTH_MODE ?? (e.DATABASE_URL === undefined ? "demo" : undefined),
    replica: e.CLUSTER_REPLICA === "on",
  };
}

/** A connection string with its password replaced, for printing. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}
