import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, readlink, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "./embedded.ts";

/*
 * The embedded database has no password check of its own (PGlite's socket server accepts any user as
 * superuser), so only this OS user may reach it and read its files.
 */
let root: string;
let dataDir: string;
let embedded: EmbeddedDatabase;
let tcpListenersBefore: Set<string>;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "embedded-test-"));
  dataDir = path.join(root, "data");
  tcpListenersBefore = await ownTcpListeners();
  embedded = await startEmbeddedDatabase({ dataDir });
  // Write after the start, so files created while running are checked too.
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  await client.query("CREATE TABLE probe AS SELECT generate_series(1, 1000) AS n");
  await client.query("CHECKPOINT");
  await client.end();
});
afterAll(async () => {
  await embedded?.stop();
  await rm(root, { recursive: true, force: true });
});

/** The socket inodes of this process's listening TCP sockets (IPv4 and IPv6), from /proc. */
async function ownTcpListeners(): Promise<Set<string>> {
  const listening = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = (await readFile(table, "utf8").catch(() => "")).split("\n").slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === "0A" && fields[9]) listening.add(fields[9]); // 0A = LISTEN; field 9 = inode
    }
  }
  const own = new Set<string>();
  for (const fd of await readdir("/proc/self/fd")) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
    const inode = target.match(/^socket:\[(\d+)\]$/)?.[1];
    if (inode && listening.has(inode)) own.add(inode);
  }
  return own;
}

function socketDirOf(url: string): string {
  return new URL(url).searchParams.get("host") ?? "";
}

describe("embedded database: local and private", () => {
  it("opens no TCP port; it serves on a Unix socket in a directory only its owner can enter", async () => {
    expect(await ownTcpListeners()).toEqual(tcpListenersBefore);
    const socketDir = socketDirOf(embedded.url);
    expect(socketDir.startsWith("/")).toBe(true);
    const dir = await stat(socketDir);
    expect(dir.mode & 0o777).toBe(0o700);
    expect(dir.uid).toBe(process.getuid?.());
  });

  it("the owner connects through the URL", async () => {
    const client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM probe");
    await client.end();
    expect(rows[0]?.n).toBe("1000");
  });

  // Only root can act as another user; root itself passes every permission check, so the other user is the test.
  // CI runs as root (.ci/run installs with apt-get): there it must run, and fails rather than skip if it cannot.
  const isRoot = process.getuid?.() === 0;
  it.skipIf(!isRoot && process.env.CI !== "true")("another local user is refused (EACCES)", () => {
    if (!isRoot) throw new Error("not root: CI must run this test as root to act as another local user");
    // Wherever the URL points: a Unix socket (libpq's file name for the default port) or a TCP address.
    const url = new URL(embedded.url);
    const socketDir = socketDirOf(embedded.url);
    const target = socketDir
      ? { path: path.join(socketDir, ".s.PGSQL.5432") }
      : { host: url.hostname, port: Number(url.port) };
    const probe = spawnSync(
      process.execPath,
      [
        "-e",
        `require("node:net").connect(JSON.parse(process.argv[1]))
          .on("connect", () => { console.log("connected"); process.exit(0); })
          .on("error", (e) => { console.log(e.code); process.exit(1); });`,
        JSON.stringify(target),
      ],
      { uid: 65534, gid: 65534, encoding: "utf8", cwd: "/" },
    );
    expect(probe.stdout.trim()).toBe("EACCES");
  });

  it("the data directory and every file in it have no rights for group or others", async () => {
    const loose: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (((await stat(dir)).mode & 0o077) !== 0) loose.push(dir);
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const entryPath = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(entryPath);
        else if (((await stat(entryPath)).mode & 0o077) !== 0) loose.push(entryPath);
      }
    };
    await walk(dataDir);
    expect(loose).toEqual([]);
  });
});
