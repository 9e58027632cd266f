/*
 * The second half of `npm run build` (after `next build`): compiles the TypeScript that runs outside Next.js
 * (scripts/compiled-scripts.mjs lists it) into one plain ES module per entry point, in the build's folder.
 *
 * esbuild, not tsc: the modules import each other through the `@/` alias without file extensions (as Next.js
 * resolves them), which tsc leaves as they are in its output and Node cannot resolve. Bundling resolves them;
 * packages stay imports of node_modules. Types are checked by `npm run typecheck`, not here.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { COMPILED_SCRIPTS, compiledScriptsDir, SCRIPT_SOURCES } from "./compiled-scripts.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = compiledScriptsDir(root);
const started = Date.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.entries(SCRIPT_SOURCES).map(([out, source]) => ({ in: source, out })),
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  // The oldest Node the project supports (package.json's engines).
  target: "node20.19",
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
});
console.log(
  `Compiled ${COMPILED_SCRIPTS.length} scripts to ${path.relative(root, outdir)} in ${Date.now() - started} ms.`,
);
