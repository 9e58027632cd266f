import { describe, expect, it } from "vitest";
import { parseJsonWithDecimals } from "./lossless-json.ts";

const money = new Set(["amount", "total"]);

describe("parseJsonWithDecimals", () => {
  it("keeps every digit of decimals under the named keys, as strings", () => {
    const text = '{"amount":123456789012.12345678,"total":-0.00000001,"count":3}';
    expect(parseJsonWithDecimals(text, money)).toEqual({
      amount: "123456789012.12345678",
      total: "-0.00000001",
      count: 3,
    });
    // What plain JSON.parse would have made of it:
    expect(String(JSON.parse(text).amount)).not.toBe("123456789012.12345678");
  });

  it("leaves numbers inside strings, escapes and nested values alone", () => {
    const text = '{"note":"amount: 12.5, \\"quoted\\" 7","items":[{"amount":1e2},{"amount":0}],"n":[1,-2.5]}';
    expect(parseJsonWithDecimals(text, money)).toEqual({
      note: 'amount: 12.5, "quoted" 7',
      items: [{ amount: "1e2" }, { amount: "0" }],
      n: [1, -2.5],
    });
  });

  it("reports malformed JSON like JSON.parse", () => {
    expect(() => parseJsonWithDecimals('{"amount": 1.}', money)).toThrow(SyntaxError);
    expect(() => parseJsonWithDecimals("{", money)).toThrow(SyntaxError);
  });

  it("keeps null and booleans", () => {
    expect(parseJsonWithDecimals('{"amount":null,"ok":true}', money)).toEqual({ amount: null, ok: true });
  });
});
