import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * lib/ is what the running application uses (docs/architecture.md). Tooling, test support and the data
 * generator live beside it and may import lib/, never the other way round: otherwise a route could pull
 * a test helper or the demo data generator into the server bundle. Test files kept next to the code they
 * test (*.test.ts) are not part of the application and may use test/support.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FORBIDDEN = ["scripts", "tools", "test", "e2e", "prisma"];

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

/** `file: specifier → top-level folder` for each import of `file` that leaves the application. */
function forbiddenImports(file: string, source: string): string[] {
  return importSpecifiers(source).flatMap((specifier) => {
    const target = resolveSpecifier(file, specifier);
    const top = target?.split(path.sep)[0];
    return top && FORBIDDEN.includes(top) ? [`${file}: ${specifier} → ${top}/`] : [];
  });
}

function applicationFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return applicationFiles(rel);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

describe("lib/ imports only the application", () => {
  it("no module under lib/ imports from scripts/, tools/, test/, e2e/ or prisma/", () => {
    const files = applicationFiles("lib");
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => forbiddenImports(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("catches alias, relative, dynamic and re-export forms, and leaves packages and lib/ alone", () => {
    const source = [
      'import { a } from "@/tools/data/generate-dataset";',
      'import type { B } from "../../test/support/test-db.ts";',
      'export { c } from "@/prisma/demo-data";',
      'const d = await import("../../scripts/serve-prepare.ts");',
      'import "../../e2e/api/helpers.ts";',
      'import { z } from "zod";',
      'import { e } from "@/lib/schemas/common";',
      'import { f } from "../db/client.ts";',
    ].join("\n");
    expect(forbiddenImports("lib/players/x.ts", source)).toEqual([
      "lib/players/x.ts: @/tools/data/generate-dataset → tools/",
      "lib/players/x.ts: ../../test/support/test-db.ts → test/",
      "lib/players/x.ts: @/prisma/demo-data → prisma/",
      "lib/players/x.ts: ../../scripts/serve-prepare.ts → scripts/",
      "lib/players/x.ts: ../../e2e/api/helpers.ts → e2e/",
    ]);
  });
});

describe("lib/http uses lib/auth, never the other way round", () => {
  // The API's pipeline (lib/http) admits callers through lib/auth; auth's refusals are lib/problems' errors and
  // its password checks take the throttle the sign-in route hands in (lib/auth/sign-in-guard.ts), so no module of
  // lib/auth needs lib/http: a cycle between them is what this holds off.
  it("no module under lib/auth, its tests included, imports from lib/http", () => {
    const files = readdirSync(path.join(ROOT, "lib", "auth"), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(e.name))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((f) =>
      importSpecifiers(readFileSync(path.join(ROOT, f), "utf8"))
        .filter((s) => resolveSpecifier(f, s)?.startsWith(path.join("lib", "http")))
        .map((s) => `${f}: ${s}`),
    );
    expect(found).toEqual([]);
  });
});

describe("a read never picks its database client", () => {
  // A definition's run gets the client routed by its caller (lib/reads/run-read.ts: the standby while usable,
  // else the primary). A module of lib/reads that imported a client or the router could skip the standby, or
  // reach it from a read that must stay on the primary; run-read.ts is the one that hands clients out.
  const CLIENT_MODULES = [path.join("lib", "db", "client"), path.join("lib", "db", "read-router")];
  const clientImports = (file: string, source: string) =>
    importSpecifiers(source)
      .filter((specifier) => {
        const target = resolveSpecifier(file, specifier);
        return target !== null && CLIENT_MODULES.includes(target.replace(/\.ts$/, ""));
      })
      .map((specifier) => `${file}: ${specifier}`);

  it("no module of lib/reads but run-read.ts imports lib/db/client or lib/db/read-router", () => {
    const files = applicationFiles(path.join("lib", "reads")).filter(
      (f) => f !== path.join("lib", "reads", "run-read.ts"),
    );
    expect(files.length).toBeGreaterThan(15);
    const found = files.flatMap((f) => clientImports(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found).toEqual([]);
  });

  it("catches the alias and relative forms, and leaves the generated client's types alone", () => {
    const source = [
      'import { getPrisma } from "@/lib/db/client";',
      'import { routeRead } from "../db/read-router.ts";',
      'import type { PrismaClient } from "@/lib/db/generated/client";',
    ].join("\n");
    expect(clientImports("lib/reads/x.ts", source)).toEqual([
      "lib/reads/x.ts: @/lib/db/client",
      "lib/reads/x.ts: ../db/read-router.ts",
    ]);
  });
});

describe("lib/client is importable from server code", () => {
  // The player page's first view reads lib/client's query keys and URL parsers on the server. nuqs's main entry
  // is client-only: a parser imported from it made `next build` fail ("called from the server"). nuqs/server
  // exports the same parsers for both sides; hooks (useQueryState) belong in lib/hooks, client modules only.
  it("no module under lib/ but a client hook imports nuqs's client-only entry", () => {
    const found = applicationFiles("lib").filter((f) => {
      const source = readFileSync(path.join(ROOT, f), "utf8");
      const clientHook =
        f.startsWith(path.join("lib", "hooks", "use-")) && /^\s*["']use client["']/.test(source);
      return importSpecifiers(source).includes("nuqs") && !clientHook;
    });
    expect(found).toEqual([]);
  });
});

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
  return [...applicationFiles("components"), ...applicationFiles("app"), ...applicationFiles("lib")]
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
  // sign-out button in every page's header posts to next-auth's endpoints itself (lib/client/sign-out.ts).
  it("only the sign-in form reaches next-auth/react", () => {
    const signIn = [
      path.join("components", "auth", "sign-in-form.tsx"),
      path.join("lib", "hooks", "use-sign-in.ts"),
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
