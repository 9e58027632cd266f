/*
 * Quick-start smoke test, on whatever `node` runs it (CI runs it on Node 24 as well as the suite's Node 20):
 * from this checkout, starts the server the README's way on a fresh embedded database in a temporary folder and a
 * free port, waits for /api/health, reads a profile with the demo bearer token and an X-Session-ID, checks the JSON,
 * then stops the server with SIGTERM and checks that it exits cleanly and promptly, leaving no process behind.
 *
 *   node scripts/smoke-quick-start.mjs            # `npm start` (after `npm install` and `npm run build`)
 *   node scripts/smoke-quick-start.mjs dev        # `npm run dev` (after `npm install` alone: the README's first line)
 *
 * SMOKE_PORT=N chooses the port.
 *
 * Plain JavaScript so that it runs as is on any Node the product supports; it prints one `SMOKE PASS|FAIL` line.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MODE = process.argv[2] ?? "start";
if (MODE !== "start" && MODE !== "dev") {
  console.error("usage: node scripts/smoke-quick-start.mjs [start|dev]");
  process.exit(2);
}
const PLAYER = "P000007";
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

/** A port nothing listens on right now (the kernel's pick), unless SMOKE_PORT names one. */
async function freePort() {
  if (process.env.SMOKE_PORT) return Number(process.env.SMOKE_PORT);
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls /api/health until it answers 200; throws if the server exits first or the time runs out. */
async function waitForHealth(base, server) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited during start (code ${server.exitCode})`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (res.status === 200) return res.json();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no healthy answer within ${START_TIMEOUT_MS / 1000} s`);
    await sleep(500);
  }
}

/** The demo profile, read as the README's "Try the API" does; throws unless it is the player's JSON. */
async function readProfile(base) {
  const res = await fetch(`${base}/api/v1/players/${PLAYER}`, {
    headers: { Authorization: "Bearer demo-token", "X-Session-ID": "smoke-quick-start" },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`profile answered ${res.status}: ${text.slice(0, 300)}`);
  if (!/^application\/json/.test(res.headers.get("content-type") ?? "")) {
    throw new Error(`profile is not JSON: ${res.headers.get("content-type")}`);
  }
  const body = JSON.parse(text);
  if (body.id !== PLAYER || typeof body.name !== "string" || !body.name) {
    throw new Error(`unexpected profile: ${text.slice(0, 300)}`);
  }
  // Money leaves as exact JSON numbers (JSON.rawJSON on Node 22+, a marker replaced on Node 20), never as text.
  const money = /"total_balance":(-?\d+(?:\.\d+)?)[,}]/.exec(text);
  if (!money || typeof body.balances?.total_balance !== "number") {
    throw new Error(`total_balance is not an exact JSON number: ${text.slice(0, 300)}`);
  }
  return body;
}

/** True while any process of the server's group (launcher, Next.js, embedded database) is alive. */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM, then a clean exit: code 0, or 143 (Next.js exits with 128 + SIGTERM after its graceful close, and the
 * launcher passes it on), in time, with no process of the group left behind (the embedded database stopped too).
 */
async function stop(server) {
  const exited = new Promise((resolve) => server.once("exit", (code, signal) => resolve({ code, signal })));
  server.kill("SIGTERM");
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), STOP_TIMEOUT_MS);
  });
  const result = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (result === null)
    throw new Error(`the server did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
  if (result.code !== 0 && result.code !== 143) {
    throw new Error(`the server exited with ${result.code ?? result.signal} after SIGTERM`);
  }
  for (let i = 0; groupAlive(server.pid); i++) {
    if (i === 20) throw new Error("a process of the server's group outlived the launcher");
    await sleep(250);
  }
  return result.code;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "smoke-quick-start-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, EMBEDDED_DB_DIR: path.join(dir, "pglite"), NEXT_TELEMETRY_DISABLED: "1" };
  // The quick start has no database server: the embedded one is used only without DATABASE_URL.
  delete env.DATABASE_URL;
  delete env.AUTH_MODE;
  console.log(`smoke: ${MODE} on node ${process.version}, ${base}, embedded database in ${dir}`);
  const started = Date.now();
  const server = spawn(
    process.execPath,
    ["scripts/serve.mjs", MODE, "--port", String(port), "--hostname", "127.0.0.1"],
    { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"], detached: true },
  );
  try {
    const health = await waitForHealth(base, server);
    console.log(
      `smoke: healthy after ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(health)}`,
    );
    const profile = await readProfile(base);
    console.log(`smoke: profile ${profile.id} (${profile.name}) read`);
    const code = await stop(server);
    console.log(`smoke: stopped cleanly (exit ${code} after SIGTERM, no process left)`);
  } catch (error) {
    if (groupAlive(server.pid)) process.kill(-server.pid, "SIGKILL");
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  await main();
  console.log(`SMOKE PASS quick start (${MODE}) on node ${process.version}`);
} catch (error) {
  console.log(`SMOKE FAIL quick start (${MODE}) on node ${process.version}: ${error.message}`);
  process.exitCode = 1;
}
