/*
 * The TypeScript that runs outside Next.js in production (the launcher's steps and the workers), compiled to plain
 * JavaScript by `npm run build` (scripts/compile-scripts.mjs), so that `npm start` and the workers load no
 * transpiler: tsx and its esbuild service cost ~90 MB per process (docs/performance.md). `npm run dev` runs the
 * same scripts from source through tsx, with nothing to build first.
 *
 * Plain JavaScript: scripts/serve.mjs imports it.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The entry points compiled (their source → <build>/scripts/<name>.mjs): the launcher's steps and the workers. */
export const SCRIPT_SOURCES = {
  "serve-prepare": "scripts/serve-prepare.ts",
  "serve-embedded": "scripts/serve-embedded.ts",
  ingest: "workers/ingest/main.ts",
  "webhooks-dispatch": "workers/webhooks/dispatch-main.ts",
};
export const COMPILED_SCRIPTS = Object.keys(SCRIPT_SOURCES);

/**
 * Inside the Next.js build's folder (NEXT_DIST_DIR, as next.config.mjs reads it), so that they belong to one
 * build: `next build` empties that folder, so a build without them is refused at start, never run stale.
 */
export function compiledScriptsDir(root, env = process.env) {
  return path.resolve(root, env.NEXT_DIST_DIR ?? ".next", "scripts");
}

/** Node's arguments that run one of the scripts: the compiled file under `start`, the source through tsx under `dev`. */
export function scriptArguments(mode, name, root, env = process.env) {
  if (mode === "start") return [path.join(compiledScriptsDir(root, env), `${name}.mjs`)];
  return ["--import", "tsx", path.join(root, SCRIPT_SOURCES[name])];
}

/** Whether the build holds every compiled script (a build made by `next build` alone does not). */
export function compiledScriptsPresent(root, env = process.env) {
  const dir = compiledScriptsDir(root, env);
  return COMPILED_SCRIPTS.every((name) => existsSync(path.join(dir, `${name}.mjs`)));
}
