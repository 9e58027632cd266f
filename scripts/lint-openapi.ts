/*
 * `npm run lint:openapi`: writes the OpenAPI document the app serves (lib/openapi/document.ts) to a temporary
 * file and lints it with Redocly (recommended rules, .redocly.yaml) and Spectral (spectral:oas, .spectral.yaml).
 * Fails on any error from either. Offline: Redocly's telemetry and update check are turned off, and the
 * document has no remote $ref for either tool to fetch.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

const dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
const file = path.join(dir, "openapi.json");
await writeFile(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);

const runs: [string, string[]][] = [
  ["redocly", ["lint", file, "--config", path.join(root, ".redocly.yaml"), "--format", "stylish"]],
  ["spectral", ["lint", file, "--ruleset", path.join(root, ".spectral.yaml"), "--fail-severity", "error"]],
];
let failed = false;
for (const [tool, args] of runs) {
  console.log(`== ${tool} lint`);
  const result = spawnSync(bin(tool), args, { stdio: "inherit", env, cwd: root });
  if (result.status !== 0) {
    console.error(`${tool} found errors in the OpenAPI document (exit ${result.status ?? result.signal}).`);
    failed = true;
  }
}
await rm(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
