import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseQuery } from "@/platform/http/query";
import { ApiError } from "@/platform/problems/problem";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { transactionExportQuerySchema, transactionListQuerySchema } from "./transaction.ts";
import {
  decodeSortedCursor,
  encodeSortedCursor,
  encodeTransactionCursor,
  TRANSACTION_SORTS,
} from "./transaction-cursor.ts";

const date = new Date("2026-01-02T03:04:05.678Z");

function errorsOf(qs: string) {
  try {
    parseQuery(transactionListQuerySchema, new URLSearchParams(qs));
  } catch (error) {
    if (error instanceof ApiError) return error.errors ?? [];
    throw error;
  }
  return [];
}

describe("sorted cursors", () => {
  it("decode what they encode, for every order and any amount the database can hold", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRANSACTION_SORTS),
        fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }),
        fc.integer({ min: 0, max: 99_999_999 }),
        fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !/\p{Cc}/u.test(s)),
        (sort, whole, fraction, id) => {
          // The amount orders sort by size: their keys are sizes, never negative.
          const amount = ExactNumber.normalize(`${whole}.${String(fraction).padStart(8, "0")}`);
          const key = sort.startsWith("amount") ? { date, id, amount } : { date, id };
          expect(decodeSortedCursor(encodeSortedCursor({ sort, key }))).toEqual({ sort, key });
        },
      ),
    );
  });

  it("accept the first and the last instant the API can write, in every order", () => {
    for (const sort of TRANSACTION_SORTS) {
      for (const at of ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]) {
        const key = sort.startsWith("amount")
          ? { date: new Date(at), id: "T1", amount: "5" }
          : { date: new Date(at), id: "T1" };
        expect(decodeSortedCursor(encodeSortedCursor({ sort, key })), `${sort} ${at}`).toEqual({ sort, key });
      }
    }
  });

  it("a cursor issued before sorting existed still reads as date_desc", () => {
    const old = encodeTransactionCursor({ date, id: "T1" });
    expect(decodeSortedCursor(old)).toEqual({ sort: "date_desc", key: { date, id: "T1" } });
  });

  it("rejects edited cursors", () => {
    for (const text of [
      "amount_desc~1767323045678~12.5.3~T1", // not a decimal
      "amount_desc~1767323045678~~T1", // no amount
      "date_asc~1767323045678~12.5~T1", // an amount in a date cursor
      "amount_up~1767323045678~1~T1", // no such order
      "date_asc~253402300800000~~T1", // year 10000
      "date_asc~-62135596800001~~T1", // before year 1
      "amount_asc~-62135596800001~5~T1", // before year 1
      "amount_asc~1767323045678~1.123456789~T1", // finer than the stored precision
      "amount_desc~1767323045678~-145~T1", // a signed amount: the amount orders sort by size
    ]) {
      expect(decodeSortedCursor(Buffer.from(text).toString("base64url")), text).toBeNull();
    }
  });

  it("a cursor from another sort is a 400 naming cursor", () => {
    const amountCursor = encodeSortedCursor({ sort: "amount_desc", key: { date, id: "T1", amount: "5" } });
    expect(errorsOf(`cursor=${amountCursor}`)).toEqual([
      {
        name: "cursor",
        in: "query",
        detail: "was issued for sort=amount_desc, not sort=date_desc (start again without a cursor)",
      },
    ]);
    expect(errorsOf(`sort=amount_desc&cursor=${amountCursor}`)).toEqual([]);
    const dateCursor = encodeTransactionCursor({ date, id: "T1" });
    expect(errorsOf(`sort=date_asc&cursor=${dateCursor}`).map((e) => e.name)).toEqual(["cursor"]);
  });

  it("sort, status and transaction_id are validated, on the list and the export", () => {
    expect(errorsOf("sort=amount").map((e) => e.name)).toEqual(["sort"]);
    expect(errorsOf("status=done").map((e) => e.name)).toEqual(["status"]);
    expect(errorsOf("transaction_id=").map((e) => e.name)).toEqual(["transaction_id"]);
    const parsed = parseQuery(
      transactionExportQuerySchema,
      new URLSearchParams("sort=amount_asc&status=pending&transaction_id=T9"),
    );
    expect(parsed).toMatchObject({ sort: "amount_asc", status: "pending", transaction_id: "T9" });
    expect(parseQuery(transactionListQuerySchema, new URLSearchParams("")).sort).toBe("date_desc");
  });
});
