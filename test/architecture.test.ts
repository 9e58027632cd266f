import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The floors of the house (docs/architecture.md): platform/ knows no feature; a feature knows the platform and
 * other features; the workers know both; app/ composes them all. Nothing that runs imports tools/, test/, e2e/,
 * scripts/ or prisma/: otherwise a route could pull a test helper or the demo data generator into the server
 * bundle. Test files kept next to the code they test (*.test.ts) are not part of the application and may reach
 * across floors and use test/support.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PRODUCT = ["platform", "features", "workers", "app"] as const;
type Floor = (typeof PRODUCT)[number];
/** The top-level folders each floor may import from. */
const ALLOWED: Record<Floor, readonly string[]> = {
  platform: ["platform"],
  features: ["platform", "features"],
  workers: ["platform", "features", "workers"],
  app: ["platform", "features", "workers", "app"],
};

/** Every import/export specifier of a module: static, side-effect only, re-export and dynamic import(). */
function importSpecifiers(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;
  return [...source.matchAll(pattern)].map((m) => m[1] as string);
}

/** The repository-relative path a specifier points at, or null for a package. */
function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return path.normalize(specifier.slice(2));
  if (specifier.startsWith(".")) return path.normalize(path.join(path.dirname(fromFile), specifier));
  return null;
}

/** `file: specifier → folder/` for each import of `file` that reaches a folder its floor may not use. */
function floorViolations(file: string, source: string): string[] {
  const floor = file.split(path.sep)[0] as Floor;
  return importSpecifiers(source).flatMap((specifier) => {
    const top = resolveSpecifier(file, specifier)?.split(path.sep)[0];
    if (!top || top === ".." || /\.(css|json|svg)$/.test(specifier)) return [];
    return ALLOWED[floor].includes(top) ? [] : [`${file}: ${specifier} → ${top}/`];
  });
}

function applicationFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : applicationFiles(rel);
    if (entry.name.endsWith(".d.mts")) return [];
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

const productFiles = () => PRODUCT.flatMap((dir) => applicationFiles(dir));

describe("the floors", () => {
  it("each product module imports only from its own floor or the floors below it", () => {
    const files = productFiles();
    expect(files.length).toBeGreaterThan(250);
    const found = files.flatMap((f) => floorViolations(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("catches upward, tool and test imports in every form, and leaves packages and its own floor alone", () => {
    const source = [
      'import { a } from "@/tools/data/generate-dataset";',
      'import type { B } from "../../test/support/test-db.ts";',
      'export { c } from "@/prisma/demo-data";',
      'const d = await import("../../features/players/data/map-player.ts");',
      'import "../../workers/ingest/consumer.ts";',
      'import { z } from "zod";',
      'import { e } from "@/platform/schemas/common";',
      'import { f } from "../db/client.ts";',
    ].join("\n");
    expect(floorViolations(path.join("platform", "http", "x.ts"), source)).toEqual([
      "platform/http/x.ts: @/tools/data/generate-dataset → tools/",
      "platform/http/x.ts: ../../test/support/test-db.ts → test/",
      "platform/http/x.ts: @/prisma/demo-data → prisma/",
      "platform/http/x.ts: ../../features/players/data/map-player.ts → features/",
      "platform/http/x.ts: ../../workers/ingest/consumer.ts → workers/",
    ]);
    expect(floorViolations(path.join("features", "players", "x.ts"), source)).toEqual([
      "features/players/x.ts: @/tools/data/generate-dataset → tools/",
      "features/players/x.ts: ../../test/support/test-db.ts → test/",
      "features/players/x.ts: @/prisma/demo-data → prisma/",
      "features/players/x.ts: ../../workers/ingest/consumer.ts → workers/",
    ]);
  });
});

describe("a feature's public surface", () => {
  // Another feature sees a feature through its entries only: index.ts (shapes and pure modules, safe in any
  // process), server.ts (its data functions, "server-only") or client.ts (what browser code may use: no
  // server-only module, no zod). Its folders stay free to change behind them.
  // Loaded lazily by another feature's page (a dynamic import, so that its code splits into a chunk of its own):
  // through an entry, the entry's other exports would pull it into the page's first load.
  const LAZY = [path.join("features", "transactions", "ui", "transactions-panel.tsx")];
  const entryViolations = (file: string, source: string) =>
    importSpecifiers(source).flatMap((specifier) => {
      const target = resolveSpecifier(file, specifier);
      if (!target || LAZY.includes(target)) return [];
      const [top, feature, ...rest] = target.split(path.sep);
      if (top !== "features" || feature === file.split(path.sep)[1]) return [];
      const entry = rest.join("/").replace(/\.ts$/, "");
      return ["", "index", "client", "server"].includes(entry) ? [] : [`${file}: ${specifier}`];
    });

  it("a feature imports another feature only through its index.ts, server.ts or client.ts", () => {
    const files = applicationFiles("features");
    const found = files.flatMap((f) => entryViolations(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("names an import of another feature's inner module, and lets entries and its own modules be", () => {
    const source = [
      'import { a } from "@/features/transactions/data/map-transaction";',
      'import { b } from "@/features/transactions";',
      'import type { C } from "@/features/transactions/client";',
      'import { e } from "@/features/transactions/server";',
      'import { d } from "../data/map-player.ts";',
    ].join("\n");
    expect(entryViolations(path.join("features", "players", "reads", "x.ts"), source)).toEqual([
      "features/players/reads/x.ts: @/features/transactions/data/map-transaction",
    ]);
  });
});

describe("what runs outside Next.js", () => {
  // The workers and the launcher's steps run on plain Node (compiled by scripts/compile-scripts.mjs, or through
  // tsx in development), where "server-only" does not resolve: a feature's index.ts must not pull one in.
  const ENTRIES = [
    path.join("workers", "ingest", "main.ts"),
    path.join("workers", "webhooks", "dispatch-main.ts"),
    path.join("workers", "webhooks", "admin-main.ts"),
    path.join("scripts", "serve-prepare.ts"),
    path.join("scripts", "serve-embedded.ts"),
  ];
  it("reaches no module marked server-only", () => {
    const seen = new Set<string>();
    const queue = [...ENTRIES];
    const marked: string[] = [];
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(path.join(ROOT, file), "utf8");
      if (/^import "server-only";$/m.test(source)) marked.push(file);
      for (const specifier of runtimeImportSpecifiers(source)) {
        const next = resolveFile(file, specifier);
        if (next) queue.push(next);
      }
    }
    expect(seen.size).toBeGreaterThan(30);
    expect(marked).toEqual([]);
  });
});

describe("no import circles", () => {
  it("no product module reaches itself through run-time imports", () => {
    expect(importCycles(productFiles())).toEqual([]);
  });

  it("finds a circle of two modules and ignores type-only imports", () => {
    const sources: Record<string, string> = {
      "a.ts": 'import { b } from "./b.ts";',
      "b.ts": 'import { a } from "./a.ts";\nimport type { C } from "./c.ts";',
      "c.ts": 'import { b } from "./b.ts";',
    };
    const cycles = importCycles(
      Object.keys(sources),
      (f) => sources[f] ?? "",
      (_from, s) => s.slice(2),
    );
    expect(cycles).toEqual([["a.ts", "b.ts", "a.ts"]]);
  });
});

describe("platform/auth is below platform/http", () => {
  // The API's pipeline (platform/http) admits callers through platform/auth; auth's refusals are
  // platform/problems' errors and its password checks take the throttle the sign-in route hands in
  // (platform/auth/sign-in-guard.ts), so no module of platform/auth needs platform/http.
  it("no module under platform/auth, its tests included, imports from platform/http", () => {
    const files = readdirSync(path.join(ROOT, "platform", "auth"), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(e.name))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((f) =>
      importSpecifiers(readFileSync(path.join(ROOT, f), "utf8"))
        .filter((s) => resolveSpecifier(f, s)?.startsWith(path.join("platform", "http")))
        .map((s) => `${f}: ${s}`),
    );
    expect(found).toEqual([]);
  });
});

describe("a read never picks its database client", () => {
  // A definition's run gets the client routed by its caller (platform/reads/run-read.ts: the standby while
  // usable, else the primary). A feature module that imported a client or the router could skip the standby, or
  // reach it from a read that must stay on the primary; run-read.ts is the one that hands clients out.
  const CLIENT_MODULES = [path.join("platform", "db", "client"), path.join("platform", "db", "read-router")];
  const clientImports = (file: string, source: string) =>
    importSpecifiers(source)
      .filter((specifier) => {
        const target = resolveSpecifier(file, specifier);
        return target !== null && CLIENT_MODULES.includes(target.replace(/\.ts$/, ""));
      })
      .map((specifier) => `${file}: ${specifier}`);

  it("no module of a feature, nor of platform/reads but run-read.ts, imports the client or the router", () => {
    const files = [
      ...applicationFiles("features").filter((f) => f.split(path.sep).includes("reads")),
      ...applicationFiles(path.join("platform", "reads")),
    ].filter((f) => f !== path.join("platform", "reads", "run-read.ts"));
    expect(files.length).toBeGreaterThan(15);
    const found = files.flatMap((f) => clientImports(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("catches the alias and relative forms, and leaves the generated client's types alone", () => {
    const source = [
      'import { getPrisma } from "@/platform/db/client";',
      'import { routeRead } from "../../../platform/db/read-router.ts";',
      'import type { PrismaClient } from "@/platform/db/generated/client";',
    ].join("\n");
    expect(clientImports(path.join("features", "players", "reads", "x.ts"), source)).toEqual([
      "features/players/reads/x.ts: @/platform/db/client",
      "features/players/reads/x.ts: ../../../platform/db/read-router.ts",
    ]);
  });
});

describe("query options and URL parsers are importable from server code", () => {
  // The player page's first view reads the features' query keys and URL parsers on the server. nuqs's main
  // entry is client-only: a parser imported from it made `next build` fail ("called from the server").
  // nuqs/server exports the same parsers for both sides; hooks (useQueryState) are client modules only.
  it('no product module but a client one ("use client") imports nuqs\'s client-only entry', () => {
    const found = productFiles().filter((f) => {
      const source = readFileSync(path.join(ROOT, f), "utf8");
      return importSpecifiers(source).includes("nuqs") && !/^\s*["']use client["']/.test(source);
    });
    expect(found).toEqual([]);
  });
});

/** Cycles among `files` through run-time imports (type-only imports vanish when compiled). */
function importCycles(
  files: readonly string[],
  read: (file: string) => string = (f) => readFileSync(path.join(ROOT, f), "utf8"),
  resolve: (from: string, specifier: string) => string | null = resolveFile,
): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files)
    edges.set(
      file,
      runtimeImportSpecifiers(read(file)).flatMap((s) => {
        const target = resolve(file, s);
        return target ? [target] : [];
      }),
    );
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next) && edges.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

/** Specifiers of the imports that exist at run time: `import type` and `export type` are left out. */
function runtimeImportSpecifiers(source: string): string[] {
  const pattern =
    /(?:^\s*import\s+(?!type\b)(?:[^;"']*?\bfrom\s*)?|^\s*export\s+(?!type\b)[^;"']*?\bfrom\s*|\bimport\s*\(\s*)["']([^"']+)["']/gm;
  return [...source.matchAll(pattern)].map((m) => m[1] as string);
}

/** The file a repository specifier names, trying the extensions the code base uses. */
function resolveFile(fromFile: string, specifier: string): string | null {
  const target = resolveSpecifier(fromFile, specifier);
  if (target === null) return null;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")]) {
    try {
      if (readdirSync(path.join(ROOT, path.dirname(candidate))).includes(path.basename(candidate)))
        if (/\.(ts|tsx|mjs|js)$/.test(candidate)) return candidate;
    } catch {
      // a folder that does not exist: try the next form
    }
  }
  return null;
}

/** Packages reached from `entries` through run-time imports, with one path that reaches each. */
function packagesReached(entries: string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const queue: { file: string; trail: string[] }[] = entries.map((file) => ({ file, trail: [file] }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (seen.has(next.file)) continue;
    seen.add(next.file);
    for (const specifier of runtimeImportSpecifiers(readFileSync(path.join(ROOT, next.file), "utf8"))) {
      const file = resolveFile(next.file, specifier);
      if (file) queue.push({ file, trail: [...next.trail, file] });
      else if (!specifier.startsWith(".") && !specifier.startsWith("@/") && !reached.has(specifier))
        reached.set(specifier, next.trail);
    }
  }
  return reached;
}

/** Every module marked "use client": where the browser bundle starts. */
function clientModules(): string[] {
  return PRODUCT.flatMap((dir) => applicationFiles(dir))
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .filter((f) => /^\s*["']use client["']/.test(readFileSync(path.join(ROOT, f), "utf8")));
}

describe("browser code", () => {
  // zod stays on the server: in the browser it was ~15 KB gzip of the player page's first load, and its
  // compiled parser probes `Function("")`, a CSP violation under the pages' policy (no 'unsafe-eval').
  it("no client component or module reaches zod", () => {
    const clientEntries = clientModules();
    expect(clientEntries.length).toBeGreaterThan(10);
    const zod = [...packagesReached(clientEntries)].filter(
      ([pkg]) => pkg === "zod" || pkg.startsWith("zod/"),
    );
    expect(zod.map(([pkg, trail]) => `${pkg} via ${trail.join(" → ")}`)).toEqual([]);
  });

  // next-auth/react's transpiled client is ~12 KB gzip; only the sign-in form needs it (signIn, in its hook). The
  // sign-out button in every page's header posts to next-auth's endpoints itself (platform/client/sign-out.ts).
  it("only the sign-in form reaches next-auth/react", () => {
    const signIn = [
      path.join("platform", "ui", "auth", "sign-in-form.tsx"),
      path.join("platform", "ui", "hooks", "use-sign-in.ts"),
    ];
    const clientEntries = clientModules().filter((f) => !signIn.includes(f));
    const found = [...packagesReached(clientEntries)].filter(([pkg]) => pkg.startsWith("next-auth"));
    expect(found.map(([pkg, trail]) => `${pkg} via ${trail.join(" → ")}`)).toEqual([]);
  });

  it("follows value imports and skips type-only ones", () => {
    const source = [
      'import type { A } from "zod";',
      'export type { B } from "./b.ts";',
      'import { c, type D } from "./c.ts";',
      'import "./side-effect.ts";',
      'export { e } from "./e.ts";',
      'const f = await import("./f.ts");',
    ].join("\n");
    expect(runtimeImportSpecifiers(source)).toEqual(["./c.ts", "./side-effect.ts", "./e.ts", "./f.ts"]);
  });
});

describe("docs/architecture.md follows the tree", () => {
  // The page is the map of the house: a feature, platform or worker folder it does not name is one a reader
  // cannot find, and a folder it names that is gone sends them nowhere.
  const folders = (floor: string) =>
    readdirSync(path.join(ROOT, floor), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${floor}/${e.name}/`);
  const page = () => readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");

  it("names every folder of features/, platform/ and workers/", () => {
    const all = ["features", "platform", "workers"].flatMap(folders);
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((folder) => !page().includes(`\`${folder}\``))).toEqual([]);
  });

  it("names no such folder that does not exist", () => {
    const named = [...page().matchAll(/`((?:features|platform|workers)\/[\w-]+\/)`/g)].map(
      (m) => m[1] as string,
    );
    const all = new Set(["features", "platform", "workers"].flatMap(folders));
    expect(named.filter((folder) => !all.has(folder))).toEqual([]);
  });
});
