/*
 * `npm run dev` / `npm start`: runs Next.js against DATABASE_URL when it is set; otherwise against the embedded
 * PostgreSQL (scripts/serve-embedded.ts: migrated, and seeded with the demo data on first start). Ctrl-C /
 * SIGTERM stop Next.js first, then the embedded database.
 *
 * Plain JavaScript on purpose: this process lives as long as the server, and loading TypeScript (tsx, esbuild)
 * here would cost about 90 MB for nothing. The TypeScript steps run as children: serve-prepare (checks the
 * configuration, exits) and, only for the embedded database, serve-embedded. `npm start` runs them as compiled by
 * `npm run build` (no transpiler in production), `npm run dev` from source through tsx (scripts/compiled-scripts.mjs).
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { compiledScriptsDir, compiledScriptsPresent, scriptArguments } from "./compiled-scripts.mjs";
import { DEMO_NOW_ISO } from "./demo-clock.mjs";
import { productionStartArgs, productionStartEnv } from "./next-start-settings.mjs";
import { listenArguments } from "./serve-hostname.mjs";

const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: node scripts/serve.mjs dev|start [next options]");
  process.exit(2);
}

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL("..", import.meta.url));
if (mode === "start" && !compiledScriptsPresent(root)) {
  console.error(
    `No compiled scripts in ${compiledScriptsDir(root)}: build with \`npm run build\` (\`next build\` alone does not compile them).`,
  );
  process.exit(1);
}

/** Runs one of the TypeScript steps; resolves with its first stdout line that `accept` takes, or exits like it. */
function runScript(name, { keepAlive, accept }) {
  const child = spawn(process.execPath, scriptArguments(mode, name, root), {
    stdio: [keepAlive ? "pipe" : "ignore", "pipe", "inherit"],
  });
  let ready = false;
  return new Promise((resolve) => {
    const lines = createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      const value = ready ? undefined : accept(line);
      if (value === undefined) console.log(line);
      else {
        ready = true;
        resolve({ child, value });
      }
    });
    // Failed (or ended without its answer) before it was ready: so does the launcher.
    child.on("exit", (code) => {
      if (!ready) process.exit(code || 1);
    });
  });
}

const env = { ...process.env };
/** @type {import("node:child_process").ChildProcess | undefined} */
let next;
const prepared = await runScript("serve-prepare", {
  keepAlive: false,
  accept: (line) => (line.startsWith("{") ? JSON.parse(line) : undefined),
});
Object.assign(env, prepared.value);

let embedded;
let stopping = false;
/** Ctrl-C / SIGTERM received: Next.js is stopping on purpose. */
let signalled = false;
let embeddedFailed = false;
if (!env.DATABASE_URL) {
  const started = await runScript("serve-embedded", {
    keepAlive: true,
    accept: (line) => line.match(/^EMBEDDED_DATABASE_URL=(.+)$/)?.[1],
  });
  embedded = started.child;
  embedded.on("exit", () => {
    if (stopping || signalled) return;
    embeddedFailed = true;
    console.error("The embedded database stopped; stopping Next.js.");
    next?.kill("SIGTERM");
  });
  env.DATABASE_URL = started.value;
  env.AUTH_MODE ??= "demo";
  // The demo data's history ends at its own "now": the portfolio's windows end there too (docs/configuration.md).
  env.PORTFOLIO_AS_OF ??= DEMO_NOW_ISO;
}

const listen = listenArguments(env, process.argv.slice(3));
if (listen.notice) console.error(listen.notice);
const nextArgs = mode === "start" ? productionStartArgs(listen.args) : listen.args;
if (mode === "start") Object.assign(env, productionStartEnv(env));

// The request stamp and the security headers, in place before Next.js opens its port (platform/runtime/server-preload.mjs).
const preload = new URL("../platform/runtime/server-preload.mjs", import.meta.url).href;
env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --import=${preload}`.trim();
const nextBin = require.resolve("next/dist/bin/next");
next = spawn(process.execPath, [nextBin, mode, ...nextArgs], { stdio: "inherit", env });

function shutdown(code) {
  if (stopping) return;
  stopping = true;
  if (!embedded || embedded.exitCode !== null) process.exit(code);
  embedded.once("exit", () => process.exit(code));
  embedded.kill("SIGTERM");
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    signalled = true;
    next.kill(signal);
  });
}
next.on("exit", (code, signal) => {
  shutdown(embeddedFailed ? 1 : (code ?? (signal ? 0 : 1)));
});
