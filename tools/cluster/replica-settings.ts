/*
 * The settings of `npm run replica:up|down|status` (tools/cluster/replica.ts), from the environment.
 */
import { z } from "zod";
import { parseSettings } from "../../platform/env/env.ts";

const replicaEnvSchema = z.object({
  /** The primary: a superuser's URL (pg_basebackup connects as that user, from 127.0.0.1). */
  REPLICA_PRIMARY_URL: z.string().min(1).default("postgresql://postgres@127.0.0.1:5432/postgres"),
  /** The standby's port on 127.0.0.1. */
  REPLICA_PORT: z.coerce.number().int().min(1).max(65_535).default(5433),
  /** The standby's postgresql-common cluster name, also its replication slot's name on the primary. */
  REPLICA_CLUSTER: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, { message: "lower-case letters, digits and _" })
    .default("par_replica"),
});

export interface ReplicaSettings {
  primaryUrl: string;
  port: number;
  cluster: string;
  slot: string;
  /** The standby's URL for the same database as the primary URL names. */
  standbyUrl: string;
}

/** The standby's URL for `databaseUrl`'s database: the same user and database, the standby's host and port. */
export function standbyUrlFor(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString();
}

export function readReplicaSettings(env: Record<string, string | undefined>): ReplicaSettings {
  const e = parseSettings(replicaEnvSchema, env, "Invalid replica configuration");
  return {
    primaryUrl: e.REPLICA_PRIMARY_URL,
    port: e.REPLICA_PORT,
    cluster: e.REPLICA_CLUSTER,
    slot: e.REPLICA_CLUSTER,
    standbyUrl: standbyUrlFor(e.REPLICA_PRIMARY_URL, e.REPLICA_PORT),
  };
}
