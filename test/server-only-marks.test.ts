import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * The modules that reach the database or the audit trail import "server-only", so that a client component
 * importing one fails `next build` (Next.js resolves the marker by layer; docs/architecture.md). This holds the
 * marks in place: the database client, every data function of a feature (each takes a PrismaClient), every
 * module of platform/audit but the operations' names (the pages' labels come from it) and server rendering's caller of the API's reads (platform/reads/server-caller.ts).
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MARK = /^import "server-only";$/m;

const modules = (dir: string) =>
  readdirSync(path.join(ROOT, dir))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => path.join(dir, name));
const features = () =>
  readdirSync(path.join(ROOT, "features"), { withFileTypes: true })
    .filter((e) => e.isDirectory() && readdirSync(path.join(ROOT, "features", e.name)).includes("data"))
    .map((e) => e.name);
const source = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

function mustBeMarked(): string[] {
  return [
    "platform/db/client.ts",
    ...features()
      .flatMap((f) => modules(path.join("features", f, "data")))
      .filter((file) => source(file).includes("PrismaClient")),
    ...modules("platform/audit").filter(
      (file) => file !== path.join("platform", "audit", "audit-operations.ts"),
    ),
    "platform/reads/server-caller.ts",
  ];
}

describe('import "server-only"', () => {
  it("marks the database client, the data functions, the audit trail and the server caller", () => {
    const files = mustBeMarked();
    expect(files).toContain("features/transactions/data/list-player-transactions.ts");
    expect(files).toContain("features/audit/data/list-player-audit-trail.ts");
    expect(files.filter((file) => !MARK.test(source(file)))).toEqual([]);
  });
});
