/*
 * A streaming hot standby of a local PostgreSQL server, made with Debian's postgresql-common (docs/scale-out.md):
 *
 *   npm run replica:up      # pg_createcluster <version> <name> -p <port> + pg_basebackup -R -X stream -C -S <slot>
 *   npm run replica:status  # JSON: the standby's state, what it has replayed, its lag behind the primary
 *   npm run replica:down    # pg_dropcluster --stop, then the primary's replication slot is dropped
 *
 * Settings (replica-settings.ts): REPLICA_PRIMARY_URL (postgresql://postgres@127.0.0.1:5432/postgres),
 * REPLICA_PORT (5433), REPLICA_CLUSTER (par_replica, also the slot's name). The primary is checked first
 * (wal_level, max_wal_senders, max_replication_slots: each needs a restart to change, so the script stops and
 * says which); a missing replication line in its pg_hba.conf is added and the configuration reloaded, never a
 * restart, and the script says so.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { runMain } from "../run-main.ts";
import { type ReplicaSettings, readReplicaSettings } from "./replica-settings.ts";
import { probeReplica, type ReplicaProbe } from "./replica-status.ts";

const say = (line: string) => console.error(`replica: ${line}`);

/** A postgresql-common or server tool, as the `postgres` OS user when this runs as root. */
export function runPgTool(tool: string, args: string[], asPostgres = false): string {
  const root = process.getuid?.() === 0;
  const [file, argv] =
    asPostgres && root ? ["runuser", ["-u", "postgres", "--", tool, ...args]] : [tool, args];
  return execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 }).toString();
}

/** pg_ctlcluster straight to pg_ctl, as .ci/run starts the local server: a container runs no systemd. */
export const CTL = ["--skip-systemctl-redirect"];

/** Whether Debian's pg_createcluster is on this machine (the tests skip without it). */
export function hasPgCreateCluster(): boolean {
  const dirs = (process.env.PATH ?? "/usr/bin").split(path.delimiter);
  return dirs.some((dir) => dir && existsSync(path.join(dir, "pg_createcluster")));
}

export interface ClusterLine {
  version: string;
  name: string;
  port: number;
  running: boolean;
  /** Whether its data directory holds standby.signal (a standby, not promoted). */
  recovery: boolean;
  dataDirectory: string;
  configDirectory: string;
}

/** The postgresql-common cluster named `name` (`pg_lsclusters --json`), or null. */
export function findCluster(name: string): ClusterLine | null {
  const all = JSON.parse(runPgTool("pg_lsclusters", ["--json"]) || "[]") as {
    cluster: string;
    version: number;
    port: string;
    running: number;
    recovery?: number;
    pgdata: string;
    configdir: string;
  }[];
  const found = all.find((c) => c.cluster === name);
  if (!found) return null;
  return {
    version: String(found.version),
    name: found.cluster,
    port: Number(found.port),
    running: found.running === 1,
    recovery: found.recovery === 1,
    dataDirectory: found.pgdata,
    configDirectory: found.configdir,
  };
}

interface PrimaryFacts {
  version: string;
  settings: Record<string, string>;
  hbaFile: string;
  /** The auth method of the first pg_hba.conf line a replication connection from 127.0.0.1 as postgres meets. */
  replicationAuth: string | null;
}

async function primaryFacts(client: pg.Client): Promise<PrimaryFacts> {
  const { rows } = await client.query<{ name: string; setting: string }>(
    `SELECT name, setting FROM pg_settings
     WHERE name IN ('wal_level', 'max_wal_senders', 'max_replication_slots', 'server_version_num', 'hba_file')`,
  );
  const settings = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  const hba = await client.query<{ auth_method: string }>(
    `SELECT auth_method FROM pg_hba_file_rules
     WHERE error IS NULL AND type IN ('host', 'hostnossl')
       AND 'replication' = ANY(database)
       AND ('all' = ANY(user_name) OR 'postgres' = ANY(user_name))
       AND CASE
             WHEN address IN ('all', 'samehost', 'samenet') THEN true
             WHEN address ~ '^[0-9.]+$' AND netmask ~ '^[0-9.]+$'
               THEN inet(address) & inet(netmask) = inet '127.0.0.1' & inet(netmask)
             ELSE false
           END
     ORDER BY line_number LIMIT 1`,
  );
  return {
    version: String(Math.floor(Number(settings.server_version_num) / 10_000)),
    settings,
    hbaFile: settings.hba_file ?? "",
    replicationAuth: hba.rows[0]?.auth_method ?? null,
  };
}

/**
 * Checks the primary can feed a streaming standby; adds a `host replication` line for 127.0.0.1 (trust, as the
 * local server's other lines are) and reloads when there is none. Throws naming what needs a restart.
 */
export async function preparePrimary(primaryUrl: string, log = say): Promise<PrimaryFacts> {
  const client = new pg.Client({ connectionString: primaryUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    let facts = await primaryFacts(client);
    const s = facts.settings;
    const needRestart = [
      s.wal_level === "minimal" ? "wal_level = replica" : null,
      Number(s.max_wal_senders) < 2 ? "max_wal_senders >= 2" : null,
      Number(s.max_replication_slots) < 1 ? "max_replication_slots >= 1" : null,
    ].filter((x): x is string => x !== null);
    if (needRestart.length) {
      throw new Error(
        `the primary needs ${needRestart.join(", ")}, which take effect only after a restart; set them (ALTER SYSTEM SET …) and restart it (pg_ctlcluster ${facts.version} main restart), then run this again`,
      );
    }
    if (facts.replicationAuth === null) {
      if (!existsSync(facts.hbaFile))
        throw new Error(`no replication line in pg_hba.conf, and ${facts.hbaFile} is not here to add one`);
      const line = "host    replication     all     127.0.0.1/32    trust   # added by npm run replica:up";
      const text = readFileSync(facts.hbaFile, "utf8");
      appendFileSync(facts.hbaFile, `${text.endsWith("\n") ? "" : "\n"}${line}\n`);
      await client.query("SELECT pg_reload_conf()");
      log(`added "${line}" to ${facts.hbaFile} and reloaded the primary's configuration (no restart)`);
      await new Promise((r) => setTimeout(r, 500));
      facts = await primaryFacts(client);
    }
    if (facts.replicationAuth !== "trust") {
      throw new Error(
        `the primary's pg_hba.conf answers a replication connection from 127.0.0.1 with ${facts.replicationAuth ?? "nothing"}; the standby connects as postgres without a password (trust), like the local server's other lines`,
      );
    }
    return facts;
  } finally {
    await client.end();
  }
}

async function dropSlot(primaryUrl: string, slot: string, log = say): Promise<void> {
  const client = new pg.Client({ connectionString: primaryUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND NOT active",
      [slot],
    );
    if (rowCount) log(`dropped the primary's replication slot ${slot}`);
  } finally {
    await client.end();
  }
}

/**
 * Makes and starts the standby: an empty cluster on its port, its data directory replaced by a base backup of
 * the primary that creates the slot and writes standby.signal and primary_conninfo (-R). Idempotent: a standby of
 * that name already there is started if stopped, and left as it is.
 */
export async function replicaUp(settings: ReplicaSettings, log = say): Promise<ReplicaProbe> {
  const started = performance.now();
  const facts = await preparePrimary(settings.primaryUrl, log);
  const existing = findCluster(settings.cluster);
  if (existing) {
    log(
      `cluster ${existing.version}/${existing.name} exists (${existing.running ? "running" : "stopped"}) on port ${existing.port}`,
    );
    if (!existing.running) runPgTool("pg_ctlcluster", [...CTL, existing.version, existing.name, "start"]);
    return probeReplica(settings);
  }
  await dropSlot(settings.primaryUrl, settings.slot, log);
  const primary = new URL(settings.primaryUrl);
  runPgTool("pg_createcluster", [facts.version, settings.cluster, "-p", String(settings.port)]);
  const created = findCluster(settings.cluster);
  if (!created) throw new Error(`pg_createcluster did not create ${settings.cluster}`);
  const conf = ["pg_conftool", facts.version, settings.cluster, "set"];
  // Queries on the standby hold back the primary's vacuum instead of being cancelled by replay (long exports).
  runPgTool(conf[0] ?? "", [...conf.slice(1), "hot_standby_feedback", "on"]);
  // The standby admits whom the primary admits (its own pg_hba.conf is a fresh cluster's otherwise).
  if (existsSync(facts.hbaFile))
    copyFileSync(facts.hbaFile, path.join(created.configDirectory, "pg_hba.conf"));
  runPgTool("find", [created.dataDirectory, "-mindepth", "1", "-delete"], true);
  log(`pg_basebackup from ${primary.hostname}:${primary.port || 5432} into ${created.dataDirectory}`);
  runPgTool(
    "pg_basebackup",
    [
      ...[
        "-h",
        primary.hostname,
        "-p",
        primary.port || "5432",
        "-U",
        decodeURIComponent(primary.username || "postgres"),
      ],
      ...["-D", created.dataDirectory, "-R", "-X", "stream", "-c", "fast", "-C", "-S", settings.slot],
    ],
    true,
  );
  runPgTool("pg_ctlcluster", [...CTL, facts.version, settings.cluster, "start"]);
  const probe = await waitStreaming(settings, 60_000);
  log(
    `standby ${settings.cluster} streaming on 127.0.0.1:${settings.port} in ${Math.round(performance.now() - started)} ms`,
  );
  return probe;
}

export async function waitStreaming(settings: ReplicaSettings, timeoutMs: number): Promise<ReplicaProbe> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = await probeReplica(settings);
    if (probe.state === "streaming") return probe;
    if (Date.now() > deadline)
      throw new Error(`the standby is not streaming after ${timeoutMs} ms: ${JSON.stringify(probe)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Stops and removes the standby's cluster, then drops its slot on the primary (else WAL piles up there). */
export async function replicaDown(settings: ReplicaSettings, log = say): Promise<void> {
  const existing = findCluster(settings.cluster);
  if (existing) {
    runPgTool("pg_dropcluster", [existing.version, existing.name, "--stop"]);
    log(`dropped cluster ${existing.version}/${existing.name}`);
  } else {
    log(`no cluster ${settings.cluster}`);
  }
  await dropSlot(settings.primaryUrl, settings.slot, log);
}

const USAGE = "usage: tsx tools/cluster/replica.ts up|down|status";

export async function main(argv: readonly string[]): Promise<number> {
  const settings = readReplicaSettings(process.env);
  switch (argv[0]) {
    case "up":
      console.log(JSON.stringify(await replicaUp(settings), null, 2));
      return 0;
    case "down":
      await replicaDown(settings);
      return 0;
    case "status": {
      const probe = await probeReplica(settings, findCluster(settings.cluster) !== null);
      console.log(JSON.stringify(probe, null, 2));
      return probe.state === "streaming" ? 0 : 3;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

runMain(import.meta.url, main, say);
