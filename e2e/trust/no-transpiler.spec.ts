import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { compiledScriptsDir } from "../../scripts/compiled-scripts.mjs";
import { type AppProcess, startApp, trustPorts } from "../../test/support/app-process.ts";
import { parentMap, processTree } from "../../test/support/process-rss.ts";

/*
 * The production start runs no TypeScript transpiler: `npm run build` compiles the TypeScript that runs outside
 * Next.js (scripts/compile-scripts.mjs), and `npm start`'s processes load no module of tsx or esbuild, whose
 * loader and service cost ~90 MB a process (docs/performance.md). Every process records the modules it resolves
 * (test/support/loaded-modules.mjs, preloaded through NODE_OPTIONS, which each child inherits), so the
 * short-lived configuration step is seen too, not only the processes still running at the end.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const RECORDER = path.join(ROOT, "test/support/loaded-modules.mjs");
const TRANSPILER = /\/node_modules\/(tsx|esbuild|@esbuild)\//;
const { appBase } = trustPorts();
let app: AppProcess | undefined;
let dir: string | undefined;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "par-no-transpiler-"));
});
test.afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The recorder's environment, writing to a log of its own; `read` returns its lines as [pid, url]. */
function recorder(name: string) {
  const log = path.join(dir as string, `${name}.log`);
  const env: Record<string, string> = { NODE_OPTIONS: `--import=${RECORDER}`, LOADED_MODULES_LOG: log };
  return {
    env,
    /** A child's whole environment: PATH and the recorder, nothing inherited that could change what it does. */
    childEnv: (): NodeJS.ProcessEnv => {
      const whole: Record<string, string> = { PATH: process.env.PATH ?? "", ...env };
      return whole as NodeJS.ProcessEnv;
    },
    read: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split(" ", 2) as [string, string]),
  };
}

test("the recorder sees tsx and esbuild in a process that loads them (the check below can fail)", () => {
  const modules = recorder("control");
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", "0"], {
    cwd: ROOT,
    env: modules.childEnv(),
  });
  expect(run.status).toBe(0);
  const urls = modules.read().map(([, url]) => url);
  expect(urls.some((url) => url.includes("/node_modules/tsx/"))).toBe(true);
  expect(urls.some((url) => url.includes("/node_modules/esbuild/"))).toBe(true);
});

test("npm start on the embedded database: no process of its tree loads tsx or esbuild", async () => {
  // The first start seeds the demo data: a minute on a loaded two-core machine.
  test.setTimeout(240_000);
  const modules = recorder("start");
  app = await startApp(
    appBase + 18,
    { EMBEDDED_DB_DIR: path.join(dir as string, "pglite"), ...modules.env },
    { startTimeoutMs: 200_000 },
  );
  const res = await fetch(`${app.url}/api/v1/players/P000007`, {
    headers: { Authorization: "Bearer demo-token", "X-Session-ID": "no-transpiler" },
  });
  expect(res.status).toBe(200);

  // What runs now: the launcher, the embedded database, `next start` and its server.
  const tree = processTree(app.pid, parentMap());
  expect(tree.length).toBeGreaterThanOrEqual(3);
  for (const pid of tree) {
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
    expect(command).not.toMatch(/tsx|esbuild/);
    const mapped = readFileSync(`/proc/${pid}/maps`, "utf8");
    expect(mapped).not.toMatch(TRANSPILER);
  }
  await app.stop();
  app = undefined;

  const lines = modules.read();
  const urls = lines.map(([, url]) => url);
  // The recorder was in every step, the configuration step that has exited included …
  const compiled = compiledScriptsDir(ROOT);
  for (const step of ["serve-prepare", "serve-embedded"]) {
    expect(urls).toContain(`file://${path.join(compiled, `${step}.mjs`)}`);
  }
  expect(new Set(lines.map(([pid]) => pid)).size).toBeGreaterThanOrEqual(4);
  // … and none of them loaded a transpiler.
  expect(urls.filter((url) => TRANSPILER.test(url))).toEqual([]);
});

test("the workers' production commands run compiled, without a transpiler", () => {
  for (const worker of ["ingest", "webhooks-dispatch"]) {
    const modules = recorder(worker);
    // No DATABASE_URL: each checks its settings and exits 2, as from source.
    const run = spawnSync(process.execPath, [path.join(compiledScriptsDir(ROOT), `${worker}.mjs`)], {
      cwd: ROOT,
      env: modules.childEnv(),
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("DATABASE_URL");
    const urls = modules.read().map(([, url]) => url);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((url) => TRANSPILER.test(url))).toEqual([]);
  }
});
