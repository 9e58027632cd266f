import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The modules that reach the database or the audit trail import "server-only", so that a client component
 * importing one fails `next build` (Next.js resolves the marker by layer; docs/architecture.md). This holds the
 * marks in place: the database client, every data function of lib/players (each takes a PrismaClient), every
 * module of lib/audit and server rendering's caller of the API's reads (lib/reads/server-caller.ts).
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MARK = /^import "server-only";$/m;

const modules = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => path.join(dir, name));
const source = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

function mustBeMarked(): string[] {
  return [
    "lib/db/client.ts",
    ...modules("lib/players").filter((file) => source(file).includes("PrismaClient")),
    ...modules("lib/audit"),
    "lib/reads/server-caller.ts",
  ];
}

describe('import "server-only"', () => {
  it("marks the database client, the data functions, the audit trail and the server caller", () => {
    const files = mustBeMarked();
    expect(files).toContain("lib/players/list-player-transactions.ts");
    expect(files).toContain("lib/audit/list-player-audit-trail.ts");
    expect(files.filter((file) => !MARK.test(source(file)))).toEqual([]);
  });
});
