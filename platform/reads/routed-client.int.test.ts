import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import { SCOPES } from "@/platform/auth/scopes";
import { getPrisma } from "@/platform/db/client";
import type { AuditedRead } from "@/platform/http/api-context";
import { ApiError } from "@/platform/problems/problem";
import { stubEnv } from "@/test/support/env";
import { createTestPrisma } from "@/test/support/test-client";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { defineRead, parseReadInput, type ReadInput } from "./read-definition.ts";

/*
 * Every read gets its database from its caller (run-read.ts: the standby while usable, else the primary) and
 * reads nothing from any other. Here the primary's client (getPrisma) points at a port where nothing listens,
 * and each read of every route in app/api/v1 runs with the test database handed in as `db`: a read that
 * reached for a client of its own, or let a data function fall back to its default, fails with the refused
 * connection.
 */
stubEnv({
  DATABASE_URL: "postgresql://nobody@127.0.0.1:1/nothing",
  DB_CONNECT_TIMEOUT_MS: "1000",
  AUTH_MODE: "jwt",
  AUTH_JWT_SECRET: "routed-client-test-secret-of-32-characters-at-least",
});
const db = createTestPrisma();
afterAll(() => db.$disconnect());

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const API = path.join("app", "api", "v1");
const SERVED = /import \{ (\w+) \} from "@\/(features\/[\w-]+\/reads\/[\w-]+)";/;

/** Each route's path under /api/v1 and the definition it serves (its file's one import from features/<name>/reads). */
function routes(dir = API): { route: string; module: string; name: string }[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return routes(rel);
    const match = entry.name === "route.ts" ? SERVED.exec(readFileSync(path.join(ROOT, rel), "utf8")) : null;
    if (!match?.[1] || !match[2]) return [];
    return [
      { route: `/${path.relative(API, dir).split(path.sep).join("/")}`, module: match[2], name: match[1] },
    ];
  });
}

/** The query strings each route is read with (every route: at least the empty one). */
const QUERIES: Record<string, string[]> = {
  "/players": ["q=fixture", `ids=${FIXTURE_PLAYER_ID}`],
  "/portfolio": ["manager=Sarah Mitchell"],
};

const principal: ApiPrincipal = {
  subject: "routed-client-test",
  sessionId: "routed-client-test",
  mode: "jwt",
  claims: null,
  verified: true,
  scopes: Object.values(SCOPES),
  roles: ["admin"],
};

interface Served {
  kind?: "json" | "choice" | "export" | "stream";
  choose?: (searchParams: URLSearchParams) => Served;
  run?: (input: ReadInput<Record<string, string>, unknown>) => Promise<{ audit: unknown }>;
  begin?: (input: object) => Promise<{ lines: () => AsyncIterable<string> }>;
  open?: (input: object) => Promise<Response>;
  params: Record<string, unknown>;
  query: unknown;
}

/** Runs the definition as its route would, on `db`; answers what it declared for the audit trail. */
async function read(served: Served, route: string, query: string): Promise<unknown> {
  const searchParams = new URLSearchParams(query);
  const definition = served.kind === "choice" && served.choose ? served.choose(searchParams) : served;
  const input = {
    ...parseReadInput(definition as never, { playerId: FIXTURE_PLAYER_ID }, searchParams),
    principal,
    db,
  };
  if (definition.run) return (await definition.run(input)).audit;
  const audited: AuditedRead[] = [];
  if (definition.begin) {
    const start = await definition.begin({
      ...input,
      head: false,
      commitAudit: async (r: AuditedRead) => {
        audited.push(r);
      },
    });
    for await (const _ of start.lines()) {
      // every line, so the batches after the first are read too
    }
    return audited;
  }
  if (definition.open) {
    const url = new URL(`http://localhost/api/v1${route}`);
    const request = new Request(url, { method: "HEAD" });
    const context = {
      request,
      url,
      requestId: "r",
      caller: "routed-client-test",
      audit: (r: AuditedRead) => audited.push(r),
    };
    try {
      await definition.open({ ...input, context });
    } catch (error) {
      // Without the primary there is no LISTEN connection, so no live feed: the stream says so before it reads.
      if (!(error instanceof ApiError && error.status === 503)) throw error;
      return "feed unavailable";
    }
    return audited;
  }
  throw new Error(`${route}: not a definition`);
}

describe("every read runs on the client its caller hands it", () => {
  it("the primary's own client is unreachable here (else this file proves nothing)", async () => {
    await expect(getPrisma().$queryRaw`SELECT 1`).rejects.toThrow();
  });

  it("a read that takes a client of its own fails here", async () => {
    const stray = defineRead({
      params: {},
      query: (await import("zod")).z.strictObject({}),
      run: async () => ({ body: await getPrisma().player.count(), audit: null }),
    });
    await expect(read(stray as Served, "/stray", "")).rejects.toThrow();
  });

  const all = routes();
  it("finds every read route", () => {
    expect(all.length).toBeGreaterThanOrEqual(17);
  });

  for (const { route, module, name } of all) {
    for (const query of QUERIES[route] ?? [""]) {
      it(`GET ${route}${query ? `?${query}` : ""} reads only from the client it is given`, async () => {
        const file = path.join(ROOT, `${module}.ts`);
        const served = (await import(/* @vite-ignore */ file))[name] as Served;
        await expect(read(served, route, query)).resolves.toBeDefined();
      });
    }
  }
});
