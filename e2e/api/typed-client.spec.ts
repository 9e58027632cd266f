import { expect, test } from "@playwright/test";
import { decimalFields, generateClientTypes } from "../../test/support/openapi-client-types.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { createExactClient, parseExact } from "./exact-client.ts";
import type { components } from "./generated/player-api.ts";
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

  const client = createExactClient(baseURL ?? "", AUTH);
  const { data, response } = await client.GET("/players/{playerId}/transactions", {
    params: {
      path: { playerId: FIXTURE_PLAYER_ID },
      query: { limit: 100 },
      header: { "X-Session-ID": AUTH["X-Session-ID"] },
    },
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
