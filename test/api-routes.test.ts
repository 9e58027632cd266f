import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * Every read of the API is a definition in features/<name>/reads (docs/architecture.md): its route file is the one line that
 * serves it, so no route holds logic of its own, and every read runs on the client its caller routes
 * (platform/reads/run-read.ts). Only the routes that read no data (the OpenAPI document and its reference page) keep
 * a handler of their own.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const API = path.join("app", "api", "v1");
const NOT_READS = [
  path.join(API, "openapi.json", "route.ts"),
  path.join(API, "docs", "route.ts"),
  path.join(API, "docs", "scalar.js", "route.ts"),
];

/** The whole of a read's route file: the definition's import, the dynamic mark, the one line that serves it. */
const READ_ROUTE =
  /^import \{ (\w+) \} from "@\/features\/[\w-]+\/reads\/[\w-]+";\nimport \{ readRoute \} from "@\/platform\/http\/api-handler";\n\nexport const dynamic = "force-dynamic";\n\nexport const \{ GET, POST, PUT, PATCH, DELETE, OPTIONS \} = readRoute\(\1\);\n$/;

function routeFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(rel);
    return entry.name === "route.ts" ? [rel] : [];
  });
}

/** The routes whose file holds more than the one line that serves a definition. */
function routesWithLogic(files: { file: string; source: string }[]): string[] {
  return files.filter(({ source }) => !READ_ROUTE.test(source)).map(({ file }) => file);
}

describe("app/api/v1 routes", () => {
  it("each read's route file is the one line serving its feature's read definition", () => {
    const files = routeFiles(API).filter((f) => !NOT_READS.includes(f));
    expect(files.length).toBeGreaterThanOrEqual(17);
    const sources = files.map((file) => ({ file, source: readFileSync(path.join(ROOT, file), "utf8") }));
    expect(routesWithLogic(sources)).toEqual([]);
  });

  it("the routes left out exist (a renamed one must not escape the rule unnoticed)", () => {
    const files = routeFiles(API);
    for (const file of NOT_READS) expect(files).toContain(file);
  });

  it("names a route with a line of logic, another import or another name", () => {
    const line = (name: string, module = "player-profile", served = name) =>
      `import { ${name} } from "@/features/players/reads/${module}";\nimport { readRoute } from "@/platform/http/api-handler";\n\nexport const dynamic = "force-dynamic";\n\nexport const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(${served});\n`;
    expect(
      routesWithLogic([
        { file: "ok", source: line("playerProfileRead") },
        { file: "logic", source: `${line("playerProfileRead")}\nconst x = 1;\n` },
        {
          file: "handler",
          source: line("playerProfileRead", "player-profile", "async () => new Response()"),
        },
        {
          file: "import",
          source: `import { routeRead } from "@/platform/db/read-router";\n${line("playerProfileRead")}`,
        },
      ]),
    ).toEqual(["logic", "handler", "import"]);
  });
});
