import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import createClient from "openapi-fetch";
import { signToken } from "../../test/support/e2e-auth.ts";
import { decimalFields, generateClientTypes } from "../../test/support/openapi-client-types.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { createExactClient, parseExact } from "./exact-client.ts";
import type { components, paths } from "./generated/player-api.ts";
import { AUTH } from "./helpers.ts";

/*
 * Issue 26: a client generated from the served document, following the documented recipe for exact money,
 * keeps a 20-digit amount exact (numeric(20,8): 12 integer and 8 fractional digits, the most it allows); plain
 * JSON.parse of the same body does not, so the test can fail.
 */
const TWENTY_DIGITS = "123456789012.12345678";
type TransactionPage = components["schemas"]["TransactionList"];

test("a typed client generated from the document keeps a 20-digit amount exact", async ({
  request,
  baseURL,
}) => {
  const document = await (await request.get("/api/v1/openapi.json")).json();
  // The recipe's generation step on the served document: money is typed `string`, never `number`.
  const types = await generateClientTypes(document);
  expect(types).toMatch(/\bamount: string;/);
  expect(types).not.toMatch(/\bamount: number;/);
  const decimals = decimalFields(document);
  expect([...decimals]).toEqual(expect.arrayContaining(["amount", "total_balance", "ltd"]));

  const client = createExactClient(baseURL ?? "", { token: "e2e-token", sessionId: AUTH["X-Session-ID"] });
  const { data, response } = await client.GET("/players/{playerId}/transactions", {
    params: { path: { playerId: FIXTURE_PLAYER_ID }, query: { limit: 100 } },
    parseAs: "text",
  });
  expect(response.status).toBe(200);
  const text = data ?? "";
  const page = parseExact<TransactionPage>(text, decimals);
  const amount: string = page.transactions.find((t) => t.id === "FX0201")?.amount ?? "";
  expect(amount).toBe(TWENTY_DIGITS);
  expect(typeof page.total).toBe("number");

  // Plain JSON.parse rounds it to a double: what the recipe exists for.
  const plain = JSON.parse(text) as { transactions: { id: string; amount: number }[] };
  const lossy = plain.transactions.find((t) => t.id === "FX0201")?.amount;
  expect(String(lossy)).not.toBe(TWENTY_DIGITS);
  expect(lossy).toBe(123456789012.12346);
});

/*
 * Issue 41: a typed client sets X-Session-ID once, in an openapi-fetch middleware (docs/integrations.md), and
 * its calls name no header. Against types generated from the served document that must type-check: it did not
 * while the document declared the header required (TS2741 on every call). At run time the middleware's header is
 * what the server needs: without it the same calls are a 400 naming X-Session-ID.
 */
const MIDDLEWARE_CLIENT = `
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./player-api.ts";

const session: Middleware = {
  onRequest({ request }) {
    request.headers.set("X-Session-ID", "nightly-sync-2026-12-07");
    return request;
  },
};
const client = createClient<paths>({ baseUrl: "http://localhost:3000/api/v1", headers: { Authorization: "Bearer t" } });
client.use(session);

export async function calls(): Promise<number[]> {
  const playerId = "P000007";
  const answers = await Promise.all([
    client.GET("/players/{playerId}", { params: { path: { playerId } } }),
    client.GET("/players/{playerId}/transactions", { params: { path: { playerId }, query: { limit: 10 } } }),
    client.GET("/players", { params: { query: { q: "silva" } } }),
    client.GET("/players/{playerId}/transaction-facets", { params: { path: { playerId } } }),
    client.GET("/players/{playerId}/transaction-totals", { params: { path: { playerId } } }),
    client.GET("/players/{playerId}/monthly-activity", { params: { path: { playerId } } }),
    client.GET("/changes", { params: { query: { limit: 1 } } }),
  ]);
  return answers.map((a) => a.response.status);
}
`;

/** tsc (strict) over the client above and the types generated from `document`; its output, empty when clean. */
async function typeCheckClient(document: object): Promise<string> {
  // Inside the checkout (git-ignored), so that `openapi-fetch` resolves from its node_modules.
  const generated = resolve("e2e/api/generated");
  await mkdir(generated, { recursive: true });
  const dir = await mkdtemp(join(generated, "middleware-check-"));
  try {
    await writeFile(join(dir, "player-api.ts"), await generateClientTypes(document));
    await writeFile(join(dir, "client.ts"), MIDDLEWARE_CLIENT);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: "ES2022",
      lib: ["dom", "ES2023"],
      module: "esnext",
      moduleResolution: "bundler",
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    };
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["client.ts"] }));
    const tsc = resolve("node_modules/.bin/tsc");
    return await promisify(execFile)(tsc, ["-p", join(dir, "tsconfig.json")]).then(
      ({ stdout }) => stdout,
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("a typed client that sets X-Session-ID in a middleware type-checks and is answered", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const document = await (await request.get("/api/v1/openapi.json")).json();
  expect(await typeCheckClient(document)).toBe("");

  const client = createExactClient(baseURL ?? "", { token: "e2e-token", sessionId: "typed-middleware" });
  const playerId = FIXTURE_PLAYER_ID;
  const answers = await Promise.all([
    client.GET("/players/{playerId}", { params: { path: { playerId } } }),
    client.GET("/players/{playerId}/transactions", { params: { path: { playerId }, query: { limit: 10 } } }),
    client.GET("/players", { params: { query: { q: "silva" } } }),
    client.GET("/changes", { params: { query: { limit: 1 } } }),
  ]);
  expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200]);

  // The same call without the middleware: the valid token is kept, the missing header named in a 400.
  const bare = createClient<paths>({
    baseUrl: `${baseURL}/api/v1`,
    headers: { Authorization: "Bearer e2e-token" },
  });
  const { error, response } = await bare.GET("/players/{playerId}", { params: { path: { playerId } } });
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = error as { detail: string; errors: { name: string; in: string }[] };
  expect(problem.errors).toEqual([{ name: "X-Session-ID", in: "header", detail: "is required" }]);
  expect(problem.detail).toBe("Header 'X-Session-ID' is required.");
});

test("the typed client reads the bulk transactions with exact money, across players", async ({ baseURL }) => {
  const token = await signToken("ledger-copy", { scope: "transactions:bulk", client_id: "ledger-copy" });
  const session = `e2e-bulk-${randomUUID()}`;
  const client = createExactClient(baseURL ?? "", { token, sessionId: session });
  const { data, response } = await client.GET("/transactions", {
    params: { query: { ids: ["FX0201", "NOPE"] }, header: { "X-Session-ID": session } },
    parseAs: "text",
  });
  expect(response.status).toBe(200);
  const page = parseExact<components["schemas"]["BulkTransactionPage"]>(data ?? "", new Set(["amount"]));
  expect(page.transactions.map((t) => [t.id, t.player_id, t.amount])).toEqual([
    ["FX0201", FIXTURE_PLAYER_ID, TWENTY_DIGITS],
  ]);
  expect(page).toMatchObject({ has_more: false, next_cursor: null });
  // Keyset pages: the first page's cursor continues it.
  const first = await client.GET("/transactions", {
    params: { query: { limit: 2 }, header: { "X-Session-ID": session } },
  });
  expect(first.response.status).toBe(200);
  expect(first.data?.next_cursor).toBeTruthy();
  const next = await client.GET("/transactions", {
    params: {
      query: { limit: 2, cursor: first.data?.next_cursor ?? "" },
      header: { "X-Session-ID": session },
    },
  });
  expect(next.response.status).toBe(200);
  expect(next.data?.transactions.map((t) => t.id)).not.toContain(first.data?.transactions[1]?.id);
});
