/*
 * Starts the production app (scripts/serve.mjs start; `mode: "dev"` the development server) as a separate
 * process for tests and the soak, and talks to it over loopback HTTP with one connection per request (so a
 * refused connection and a reset one are told apart). The production app needs a build (`npm run build`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import http from "node:http";
import { reapOnExit } from "./child-reaper.ts";
import { parentMap, vmRssKiB } from "./process-rss.ts";

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  startedAt: number;
  ms: number;
}
export interface HttpFailure {
  error: string;
  startedAt: number;
  ms: number;
}

/** GET over a fresh connection. Resolves with the response or the socket error's code; never rejects. */
export function httpGet(
  url: string,
  headers: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<HttpResult | HttpFailure> {
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { Connection: "close", ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          startedAt,
          ms: Date.now() - startedAt,
        }),
      );
      res.on("error", (e: NodeJS.ErrnoException) =>
        resolve({ error: e.code ?? e.message, startedAt, ms: Date.now() - startedAt }),
      );
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (e: NodeJS.ErrnoException) =>
      resolve({ error: e.code ?? e.message, startedAt, ms: Date.now() - startedAt }),
    );
  });
}

export const isFailure = (r: HttpResult | HttpFailure): r is HttpFailure => "error" in r;

export interface AppProcess {
  url: string;
  /** The launcher's pid (scripts/serve.mjs); signals sent to it are forwarded to Next.js. */
  pid: number;
  /** The first answer the server gave: to the readiness probe, GET /api/health, the moment it accepted connections. */
  firstAnswer: HttpResult;
  /** What the server wrote so far (standard error only when its standard output goes to a file). */
  output(): string;
  /** The Next.js server process (the launcher's child), for memory sampling. */
  serverPid(): number | null;
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the launcher's exit code (or the signal that ended it). */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL to the whole process group if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<number | string>;
}

const INHERITED = ["PATH", "HOME", "NODE_OPTIONS", "NEXT_DIST_DIR", "TMPDIR", "LANG"];
/** Servers on an operator's database need an explicit session secret (the launcher generates none for them). */
export const TEST_SESSION_SECRET = "test-servers-session-secret-test-servers-session";

export interface StartOptions {
  startTimeoutMs?: number;
  /**
   * Where the server's standard output (its info logs: a line per request) goes. By default it is kept in
   * memory for `output()`; a benchmark sends it to a file instead, as a deployment sends it to a log shipper,
   * so that reading it costs the load generator nothing.
   */
  stdoutFile?: string;
  /** `start` (the production build, the default) or `dev` (`npm run dev`'s development server). */
  mode?: "start" | "dev";
  /** The `--hostname` argument (default 127.0.0.1); null gives none, so the launcher decides as `npm start` does. */
  hostname?: string | null;
}

/** Starts the app on `port` with exactly `env` (plus PATH etc.) and waits until it answers. */
export async function startApp(
  port: number,
  env: Record<string, string>,
  options: StartOptions | number = {},
): Promise<AppProcess> {
  const {
    startTimeoutMs = 90_000,
    stdoutFile,
    mode = "start",
    hostname = "127.0.0.1",
  } = typeof options === "number" ? { startTimeoutMs: options } : options;
  const { child, watch, exited } = spawnApp(port, appEnv(env), { stdoutFile, mode, hostname });
  const pid = child.pid ?? 0;
  const url = `http://127.0.0.1:${port}`;
  const firstAnswer = await waitUntilAnswering(url, pid, watch, startTimeoutMs, stdoutFile);
  return {
    url,
    pid,
    firstAnswer,
    output: () => watch.output,
    serverPid: () => childPid(pid),
    signal: (signal) => {
      if (!watch.done) process.kill(pid, signal);
    },
    exited,
    async stop(graceMs = 20_000) {
      if (!watch.done) process.kill(pid, "SIGTERM");
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // already gone
        }
      }, graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The started server as it runs: what it wrote so far, and whether it has exited. */
interface ServerWatch {
  output: string;
  done: boolean;
}

/** The server's environment: fixed defaults, a few inherited variables, then exactly `env`. */
function appEnv(env: Record<string, string>): Record<string, string> {
  const childEnv: Record<string, string> = {
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "info",
    NEXTAUTH_SECRET: TEST_SESSION_SECRET,
    // Tests and benches connect as postgres, a superuser, which `next start` refuses unless told (`env` may say off).
    DB_ALLOW_PRIVILEGED_ROLE: "on",
  };
  for (const key of INHERITED) if (process.env[key]) childEnv[key] = process.env[key] as string;
  Object.assign(childEnv, env);
  return childEnv;
}

/** Launches scripts/serve.mjs in its own process group, collecting its output and noting its exit. */
function spawnApp(
  port: number,
  childEnv: Record<string, string>,
  { stdoutFile, mode, hostname }: { stdoutFile?: string; mode: "start" | "dev"; hostname: string | null },
) {
  const stdoutFd = stdoutFile ? openSync(stdoutFile, "a") : undefined;
  // Its whole group dies with this process, however it ends (a stray server holds the port for the next run).
  const child: ChildProcess = reapOnExit(
    spawn(
      process.execPath,
      [
        "scripts/serve.mjs",
        mode,
        "--port",
        String(port),
        ...(hostname === null ? [] : ["--hostname", hostname]),
      ],
      { env: childEnv as NodeJS.ProcessEnv, stdio: ["ignore", stdoutFd ?? "pipe", "pipe"], detached: true },
    ),
    { group: true },
  );
  if (stdoutFd !== undefined) closeSync(stdoutFd);
  const watch: ServerWatch = { output: "", done: false };
  child.stdout?.on("data", (d: Buffer) => {
    watch.output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    watch.output += d.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  void exited.then(() => {
    watch.done = true;
  });
  return { child, watch, exited };
}

/** Polls GET /api/health until the server answers; fails when it exits first or the time is up (killing it). */
async function waitUntilAnswering(
  url: string,
  pid: number,
  watch: ServerWatch,
  startTimeoutMs: number,
  stdoutFile: string | undefined,
): Promise<HttpResult> {
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (watch.done) {
      const more = stdoutFile ? `\n(its standard output is in ${stdoutFile})` : "";
      throw new Error(`the app exited during start:\n${watch.output}${more}`);
    }
    const res = await httpGet(`${url}/api/health`, {}, 5_000);
    if (!isFailure(res)) return res;
    if (Date.now() > deadline) {
      process.kill(-pid, "SIGKILL");
      throw new Error(`the app did not start within ${startTimeoutMs} ms:\n${watch.output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface HelperServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts one of the servers the product is compared with (node args and env), and waits until `healthPath` answers 200. */
export async function startHelperServer(
  name: string,
  command: { args: string[]; env: NodeJS.ProcessEnv },
  port: number,
  healthPath: string,
): Promise<HelperServer> {
  const child = reapOnExit(
    spawn(process.execPath, command.args, {
      env: command.env,
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${name} exited during start (code ${child.exitCode})`);
    const res = await httpGet(`${url}${healthPath}`, {}, 2_000);
    if (!isFailure(res) && res.status === 200) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the ${name} did not start within 30 s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The launcher's child that runs Next.js (Linux /proc), else its first child, or null. */
export function childPid(pid: number): number | null {
  const children = [...parentMap()].filter(([, ppid]) => ppid === pid).map(([child]) => child);
  // The launcher may also run the embedded database as a child: prefer Next.js's process.
  const isNext = (child: number) => {
    try {
      return /next-server|next\/dist\/bin\/next/.test(readFileSync(`/proc/${child}/cmdline`, "utf8"));
    } catch {
      return false;
    }
  };
  return children.find(isNext) ?? children[0] ?? null;
}

/** Resident memory of a process in MiB (Linux /proc), or null. */
export function rssMiB(pid: number): number | null {
  const kib = vmRssKiB(pid);
  return kib ? kib / 1024 : null;
}

/** Ports for the servers the trust tests start: next to the E2E ports, so parallel runs do not collide. */
export function trustPorts() {
  const e2ePostgres = Number(process.env.E2E_POSTGRES_PORT ?? 3102);
  return {
    appBase: Number(process.env.E2E_TRUST_PORT_BASE ?? e2ePostgres + 8),
    faultPostgres: Number(process.env.E2E_FAULT_PG_PORT ?? e2ePostgres + 20),
  };
}
