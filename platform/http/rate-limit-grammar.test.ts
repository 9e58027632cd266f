import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The project's file a specifier names (relative or `@/`), or null for a package or node: module. */
function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  const found = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts")].find(
    (candidate) => existsSync(candidate) && !candidate.endsWith(path.sep),
  );
  if (!found) throw new Error(`${path.relative(ROOT, from)}: cannot resolve ${specifier}`);
  return found;
}

/** Every project file `entry` reaches through its static imports, `import type` included (a circle for tsc). */
function importClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [path.join(ROOT, entry)];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    const imports = /^\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;
    for (const [, specifier, bare] of source.matchAll(imports)) {
      const named = specifier ?? bare;
      const target = named ? resolveImport(file, named) : null;
      if (target) pending.push(target);
    }
  }
  return new Set([...seen].map((file) => path.relative(ROOT, file)));
}

describe("settings parsing", () => {
  it("reaches no authentication or database module, and so never itself (no import circle)", () => {
    const reached = importClosure("platform/env/env.ts");
    // It did: env → rate-limit-policies → api-auth → session-store → db/client → env.
    expect([...reached].sort()).toEqual([
      "platform/auth/roles.ts",
      "platform/env/env.ts",
      "platform/env/nats-settings.ts",
      "platform/http/rate-limit-grammar.ts",
      "platform/http/trusted-proxies.mjs",
    ]);
  });
});
