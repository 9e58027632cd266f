/*
 * A throwaway PostgreSQL cluster (initdb + pg_ctl in a temporary directory, on its own port) that a test
 * can stop and start at will, to see what the app does while its database is really gone. Never touches
 * the machine's own server. As root, the server runs as the `postgres` OS user (PostgreSQL refuses root).
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface PgCluster {
  url: string;
  start(): void;
  /** `fast`: disconnects clients (what an operator's restart does); `immediate`: like a crash. */
  stop(mode?: "fast" | "immediate"): void;
  destroy(): void;
}

/** The directory of initdb/pg_ctl: PG_BIN, or the newest /usr/lib/postgresql/<v>/bin; null if none. */
export function findPostgresBin(): string | null {
  if (process.env.PG_BIN)
    return existsSync(path.join(process.env.PG_BIN, "initdb")) ? process.env.PG_BIN : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

export function createPgCluster(port: number): PgCluster {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found; set PG_BIN");
  const dir = mkdtempSync(path.join(tmpdir(), "par-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const cmd = path.join(bin, tool);
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];
    return execFileSync(file, argv, { stdio: "pipe", timeout: 60_000 }).toString();
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start() {
      run("pg_ctl", [
        "-D",
        data,
        "-l",
        path.join(dir, "server.log"),
        "-o",
        options,
        "-w",
        "-t",
        "60",
        "start",
      ]);
    },
    stop(mode = "fast") {
      run("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "60", "stop"]);
    },
    destroy() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
