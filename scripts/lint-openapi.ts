/*
 * `npx tsx scripts/lint-openapi.ts` (`npm test` runs it first): writes the OpenAPI document the app serves
 * (features/api-docs/document.ts) to a temporary file and lints it with Redocly (recommended rules, .redocly.yaml) and
 * Spectral (spectral:oas, .spectral.yaml).
 * Fails on any error OR warning from either: the document is held at zero of both (issue 26). Offline: Redocly's
 * telemetry and update check are turned off, and the document has no remote $ref for either tool to fetch.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "../features/api-docs/document.ts";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Redocly exits 0 on warnings: its JSON report is read instead, each problem printed, warnings counted. */
function redocly(file: string): boolean {
  const args = ["lint", file, "--config", path.join(root, ".redocly.yaml"), "--format", "json"];
  const result = spawnSync(bin("redocly"), args, { env, cwd: root, encoding: "utf8" });
  let report: RedoclyReport;
  try {
    report = JSON.parse(result.stdout) as RedoclyReport;
  } catch {
    console.error(result.stdout, result.stderr);
    return false;
  }
  for (const p of report.problems) {
    console.log(
      `  ${p.severity.padEnd(5)} ${p.ruleId.padEnd(32)} ${p.location[0]?.pointer ?? ""}  ${p.message}`,
    );
  }
  const { errors, warnings } = report.totals;
  console.log(`redocly: ${errors} errors, ${warnings} warnings`);
  return errors === 0 && warnings === 0;
}

function spectral(file: string): boolean {
  const args = ["lint", file, "--ruleset", path.join(root, ".spectral.yaml"), "--fail-severity", "warn"];
  const result = spawnSync(bin("spectral"), args, { stdio: "inherit", env, cwd: root });
  return result.status === 0;
}

const dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
const file = path.join(dir, "openapi.json");
await writeFile(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);

let failed = false;
for (const [tool, lint] of [
  ["redocly", redocly],
  ["spectral", spectral],
] as const) {
  console.log(`== ${tool} lint`);
  if (!lint(file)) {
    console.error(`${tool} found errors or warnings in the OpenAPI document: both must be zero.`);
    failed = true;
  }
}
await rm(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
