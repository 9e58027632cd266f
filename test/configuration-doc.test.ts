import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { APP_SETTINGS } from "@/platform/env/env";
import { INGEST_SETTINGS } from "@/workers/ingest/config";
import { DISPATCH_SETTINGS } from "@/workers/webhooks/config";
import { SCRIPT_SETTINGS } from "../platform/env/script-env.ts";
import { ROLES_SETTINGS } from "../scripts/db-roles-recipe.ts";

/*
 * docs/configuration.md lists every setting with the processes that read it. The settings are the keys of each
 * process's one schema, so the page is checked against those key lists both ways: each (process, setting) has a
 * row, and each row names settings of exactly the processes it says. Product code reading the environment
 * outside the schemas may read only a setting of some schema or one of NOT_SETTINGS.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));

const PROCESSES: Record<string, readonly string[]> = {
  app: APP_SETTINGS,
  ingest: INGEST_SETTINGS,
  dispatch: DISPATCH_SETTINGS,
  scripts: SCRIPT_SETTINGS,
  roles: ROLES_SETTINGS,
};

/** Variables product code reads that are not this service's settings: the platform's, or tooling's own. */
const NOT_SETTINGS: Record<string, string> = {
  NODE_ENV: "set by Next.js (development / production)",
  NEXT_RUNTIME: "set by Next.js (nodejs / edge)",
  NEXT_DIST_DIR: "a build folder for parallel test builds (docs/testing.md), not a deployment setting",
  PRISMA_SCHEMA_ENGINE_BINARY: "Prisma's own, passed through by prisma generate",
  HOSTNAME: "read only to say it is ignored (configuration.md explains why, beside LISTEN_HOST)",
  SMOKE_PORT: "CI's quick-start smoke run (docs/testing.md)",
};

/** The processes of a setting, from the schemas, in PROCESSES' order. */
const processesOf = (name: string) => Object.keys(PROCESSES).filter((p) => PROCESSES[p]?.includes(name));

interface Row {
  names: string[];
  processes: string[];
  line: number;
}

/** The rows of every `| Variable | Process | … |` table of the page: the names and the processes each names. */
function documentedRows(): Row[] {
  const lines = readFileSync(path.join(ROOT, "docs/configuration.md"), "utf8").split("\n");
  const rows: Row[] = [];
  let inTable = false;
  lines.forEach((text, index) => {
    if (/^\|\s*Variable\s*\|\s*Process\s*\|/.test(text)) inTable = true;
    else if (!text.startsWith("|")) inTable = false;
    else if (inTable && !/^\|\s*-/.test(text)) {
      const [, first = "", second = ""] = text.split("|");
      const names = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] as string);
      const processes = [...second.matchAll(/`([a-z]+)`/g)].map((m) => m[1] as string);
      rows.push({ names, processes, line: index + 1 });
    }
  });
  return rows;
}

const SOURCE = /\.(ts|tsx|mts|mjs|cjs)$/;
const PRODUCT = ["platform", "features", "workers", "app", "scripts"];
const ROOT_MODULES = ["instrumentation.ts", "proxy.ts", "next.config.mjs", "prisma.config.ts"];

function productFiles(): string[] {
  return PRODUCT.flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && SOURCE.test(e.name))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name))),
  )
    .filter((f) => !/\.test\.tsx?$/.test(f) && !f.includes("/generated/") && !f.includes("node_modules"))
    .concat(ROOT_MODULES);
}

/** Every variable name product code reads by name, with the first file that reads it. */
function variablesReadByName(): Map<string, string> {
  const read = new Map<string, string>();
  const patterns = [
    /\bprocess\.env\.([A-Z][A-Z0-9_]*[A-Z0-9])\b/g,
    /\bprocess\.env\[["']([A-Z][A-Z0-9_]*[A-Z0-9])["']\]/g,
    /\benv\.([A-Z][A-Z0-9_]*[A-Z0-9])\b/g, // readers handed process.env (or a parsed schema) as `env`
  ];
  for (const file of productFiles()) {
    const source = readFileSync(path.join(ROOT, file), "utf8");
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) {
        const name = match[1] as string;
        if (!read.has(name)) read.set(name, file);
      }
    }
  }
  return read;
}

describe("docs/configuration.md", () => {
  const rows = documentedRows();
  const documented = rows.flatMap((row) => row.names.map((name) => ({ name, row })));

  it("documents every setting of every process's schema, naming that process", () => {
    expect(APP_SETTINGS.length).toBeGreaterThan(50); // the key lists are the schemas'
    const missing = Object.entries(PROCESSES).flatMap(([process, names]) =>
      names
        .filter((name) => !documented.some((d) => d.name === name && d.row.processes.includes(process)))
        .map((name) => `${name} (${process})`),
    );
    expect(missing, "settings missing from docs/configuration.md, or listed without this process").toEqual(
      [],
    );
  });

  it("documents only settings, each with exactly the processes whose schema holds it", () => {
    expect(documented.length).toBeGreaterThan(50);
    const wrong = documented
      .filter(({ name, row }) => processesOf(name).join(",") !== row.processes.join(","))
      .map(
        ({ name, row }) =>
          `line ${row.line}: ${name} says ${row.processes.join(",") || "no process"}, the schemas ${processesOf(name).join(",") || "none"}`,
      );
    expect(wrong).toEqual([]);
  });

  it("documents each setting once", () => {
    const names = documented.map((d) => d.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("has no row of the settings' tables without a setting but the server's argument", () => {
    const bare = rows.filter((row) => row.names.length === 0).map((row) => row.line);
    expect(bare).toHaveLength(1); // `--keepAliveTimeout`, an argument of npm start
  });
});

describe("the environment outside the schemas", () => {
  it("product code reads by name only settings of a schema and the platform's variables", () => {
    const settings = new Set(Object.values(PROCESSES).flat());
    const read = variablesReadByName();
    expect(read.size).toBeGreaterThan(20); // the scan finds the readers
    const stray = [...read]
      .filter(([name]) => !settings.has(name) && !(name in NOT_SETTINGS))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(stray, "read outside every schema: a setting belongs in its process's schema").toEqual([]);
  });

  it("every exception is still read, so the list does not outlive its reason", () => {
    const read = variablesReadByName();
    expect(Object.keys(NOT_SETTINGS).filter((name) => !read.has(name))).toEqual([]);
  });
});
