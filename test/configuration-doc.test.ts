import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * docs/configuration.md says it lists every setting. The settings are what the product code reads: the keys of
 * its environment schemas (lib/env.ts, the ingest's, the dispatcher's, db:roles') and any `process.env.X` or
 * `env.X` of lib/, app/, components/, scripts/ and the root modules (not tests or tools/). Each must have a row in a
 * table of the page (a row may name a family, `OIDC_*`); each row must name a setting something still reads.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PRODUCT = ["lib", "app", "components", "scripts"];
const ROOT_MODULES = ["instrumentation.ts", "proxy.ts", "next.config.mjs", "prisma.config.ts"];
const SOURCE = /\.(ts|tsx|mts|mjs|cjs)$/;

/** Variables the code reads that are not this service's settings: the platform's, or tooling's own. */
const NOT_SETTINGS: Record<string, string> = {
  NODE_ENV: "set by Next.js (development / production)",
  NEXT_RUNTIME: "set by Next.js (nodejs / edge)",
  NEXT_DIST_DIR: "a build folder for parallel test builds, not a deployment setting",
  PRISMA_SCHEMA_ENGINE_BINARY: "Prisma's own, passed through by prisma generate",
  HOSTNAME: "read only to say it is ignored (configuration.md explains why, beside LISTEN_HOST)",
  SMOKE_PORT: "CI's quick-start smoke run",
};

function files(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !/\.test\.tsx?$/.test(f) && !f.includes("/generated/") && !f.includes("node_modules"));
}

/** Every variable name the product code reads, with the first file that reads it. */
function settingsReadByCode(): Map<string, string> {
  const read = new Map<string, string>();
  const patterns = [
    /^\s*["']?([A-Z][A-Z0-9_]*[A-Z0-9])["']?\s*:\s*z\b/gm, // a key of an environment schema
    /\bprocess\.env\.([A-Z][A-Z0-9_]*[A-Z0-9])\b/g,
    /\bprocess\.env\[["']([A-Z][A-Z0-9_]*[A-Z0-9])["']\]/g,
    /\benv\.([A-Z][A-Z0-9_]*[A-Z0-9])\b/g, // readers handed process.env as `env` (.mjs start-up code)
  ];
  for (const file of [...PRODUCT.flatMap(files), ...ROOT_MODULES]) {
    const source = readFileSync(path.join(ROOT, file), "utf8");
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) {
        const name = match[1] as string;
        if (!read.has(name)) read.set(name, file);
      }
    }
  }
  for (const name of Object.keys(NOT_SETTINGS)) read.delete(name);
  return read;
}

/** The names in the first column of every table of docs/configuration.md (`A` / `B`, `C_*` included). */
function documentedSettings(): string[] {
  const page = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8");
  const names: string[] = [];
  for (const line of page.split("\n")) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*(?:_\*)?)`/g)) names.push(m[1] as string);
  }
  return names;
}

const isDocumented = (name: string, documented: readonly string[]) =>
  documented.some((d) => (d.endsWith("_*") ? name.startsWith(d.slice(0, -1)) : d === name));

describe("docs/configuration.md", () => {
  const read = settingsReadByCode();
  const documented = documentedSettings();

  it("documents every setting the code reads", () => {
    expect(read.size).toBeGreaterThan(50); // the scan finds the schemas
    const missing = [...read]
      .filter(([name]) => !isDocumented(name, documented))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing, "settings read by the code but missing from docs/configuration.md").toEqual([]);
  });

  it("documents no setting that nothing reads any more", () => {
    // A setting may be read by the tooling the page documents (npm test, the benches) as well as the product.
    const everything = ["lib", "app", "components", "scripts", "tools", "test", "e2e"]
      .flatMap((dir) => readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true }))
      .filter((e) => e.isFile() && (SOURCE.test(e.name) || e.name.endsWith(".sh")))
      .map((e) => path.join(e.parentPath, e.name))
      .filter((f) => !f.includes("node_modules") && !f.includes("/.next/"))
      .concat(ROOT_MODULES.map((f) => path.join(ROOT, f)))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const stale = documented.filter(
      (name) => !name.endsWith("_*") && !new RegExp(`\\b${name}\\b`).test(everything),
    );
    expect(stale, "names in docs/configuration.md that no code reads").toEqual([]);
  });
});
