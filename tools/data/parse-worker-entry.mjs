/*
 * Entry of db:import's parse workers. On Node 20 a worker thread does not inherit a TypeScript loader from
 * its parent (neither under tsx nor under vitest), so the worker module is loaded through tsx explicitly,
 * with the project's tsconfig for the "@/" paths.
 */
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

await tsImport("./parse-worker.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)),
});
