import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeTransactionCursor, encodeTransactionCursor } from "./transaction-cursor.ts";

describe("transaction cursor", () => {
  it("decodes what it encodes, for any key the API can issue", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("0001-01-01T00:00:00Z"),
          max: new Date("9999-12-31T23:59:59.999Z"),
          noInvalidDate: true,
        }),
        fc
          .string({ minLength: 1, maxLength: 64, unit: "grapheme" })
          .filter((s) => !/\p{Cc}/u.test(s) && [...s].length <= 64),
        (date, id) => {
          const key = decodeTransactionCursor(encodeTransactionCursor({ date, id }));
          expect(key).toEqual({ date, id });
        },
      ),
    );
  });

  it("is opaque URL-safe text", () => {
    const cursor = encodeTransactionCursor({ date: new Date("2026-01-02T03:04:05.678Z"), id: "T0000000042" });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain("T0000000042");
  });

  it("rejects anything it did not issue", () => {
    const good = encodeTransactionCursor({ date: new Date("2026-01-02T03:04:05.678Z"), id: "T1" });
    for (const bad of [
      "",
      "not base64!",
      `${good}=`,
      good.slice(0, -1),
      `${good}A`,
      Buffer.from("1767323045678").toString("base64url"), // no id
      Buffer.from("abc.T1").toString("base64url"), // no time
      Buffer.from("1.5.T1").toString("base64url").replace(/./, "x"),
      Buffer.from("253402300800000.T1").toString("base64url"), // year 10000
      Buffer.from("-62135596800001.T1").toString("base64url"), // before year 1
      Buffer.from("1767323045678.T\u0000").toString("base64url"), // control character in the id
      Buffer.from(`1767323045678.${"x".repeat(65)}`).toString("base64url"),
      "A".repeat(201),
    ]) {
      expect(decodeTransactionCursor(bad), bad).toBeNull();
    }
  });
});
