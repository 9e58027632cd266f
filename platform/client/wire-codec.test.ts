import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringifyJson } from "@/platform/http/json";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { decimalChild, isDecimalPath, parseWire } from "./wire-codec.ts";

const money = { amount: true, balances: { total: true }, items: { "*": { amount: true } } } as const;

/** Decimals of numeric(20,8): whole 10⁻⁸ steps, up to 12 integer digits, so far past 2^53 in units. */
const units = fc.bigInt({ min: -(10n ** 20n) + 1n, max: 10n ** 20n - 1n });
const decimalText = units.map((u) => {
  const sign = u < 0n ? "-" : "";
  const abs = u < 0n ? -u : u;
  return ExactNumber.normalize(`${sign}${abs / 10n ** 8n}.${(abs % 10n ** 8n).toString().padStart(8, "0")}`);
});

describe("parseWire: money by the schema's decimal tree", () => {
  it("keeps every digit of decimals where the tree says so, as strings", () => {
    const text = '{"amount":123456789012.12345678,"balances":{"total":-0.00000001},"count":3}';
    expect(parseWire(text, money)).toEqual({
      amount: "123456789012.12345678",
      balances: { total: "-0.00000001" },
      count: 3,
    });
    // What plain JSON.parse would have made of it:
    expect(String(JSON.parse(text).amount)).not.toBe("123456789012.12345678");
  });

  it("reads a key by its place, not its name: the same key elsewhere is a number", () => {
    const text = '{"total":7,"balances":{"amount":2.5},"items":[{"amount":1e2,"total":1},{"amount":0}]}';
    expect(parseWire(text, money)).toEqual({
      total: 7,
      balances: { amount: 2.5 },
      items: [{ amount: "1e2", total: 1 }, { amount: "0" }],
    });
  });

  it("leaves numbers inside strings and escapes alone", () => {
    const text = '{"note":"amount: 12.5, \\"quoted\\" 7","n":[1,-2.5],"amount":null,"ok":true}';
    expect(parseWire(text, money)).toEqual({
      note: 'amount: 12.5, "quoted" 7',
      n: [1, -2.5],
      amount: null,
      ok: true,
    });
  });

  it("reports malformed JSON as a SyntaxError, like JSON.parse", () => {
    expect(() => parseWire('{"amount": 1.}', money)).toThrow(SyntaxError);
    expect(() => parseWire("{", money)).toThrow(SyntaxError);
  });

  it("hands the digits to `decimal` when given", () => {
    expect(parseWire('{"amount":-0.5}', money, (digits) => new ExactNumber(digits))).toEqual({
      amount: new ExactNumber("-0.5"),
    });
  });

  it("round-trips any numeric(20,8) value the API writes, other numbers as JavaScript's", () => {
    fc.assert(
      fc.property(
        fc.array(decimalText, { maxLength: 5 }),
        decimalText,
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (amounts, total, count, ratio) => {
          const body = {
            amount: new ExactNumber(total),
            balances: { total: new ExactNumber(total) },
            items: amounts.map((a) => ({ amount: new ExactNumber(a), count })),
            count,
            ratio,
          };
          expect(parseWire(stringifyJson(body), money)).toEqual({
            amount: total,
            balances: { total },
            items: amounts.map((a) => ({ amount: a, count })),
            count,
            ratio: JSON.parse(JSON.stringify(ratio)),
          });
        },
      ),
    );
  });

  it("keeps values past 2^53 and in 1e-8 steps that a double would round", () => {
    const text = stringifyJson({ amount: new ExactNumber("99999999999.99999999") });
    expect(parseWire(text, money)).toEqual({ amount: "99999999999.99999999" });
    expect(Number("99999999999.99999999").toString()).not.toBe("99999999999.99999999");
  });
});

describe("decimal tree paths", () => {
  it("names array items by `*` and stops at a decimal", () => {
    expect(decimalChild(money, "items")).toEqual({ "*": { amount: true } });
    expect(decimalChild(decimalChild(money, "items"), 3)).toEqual({ amount: true });
    expect(decimalChild(true, "x")).toBeUndefined();
    expect(isDecimalPath(money, ["items", 0, "amount"])).toBe(true);
    expect(isDecimalPath(money, ["items", 0])).toBe(false);
    expect(isDecimalPath(money, ["count"])).toBe(false);
  });
});
