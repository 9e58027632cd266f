import { describe, expect, it } from "vitest";
import { ExactNumber } from "../schemas/exact-number.ts";
import { stringifyJson } from "./json.ts";

describe("stringifyJson", () => {
  it("writes exact decimals verbatim, where floating point would drift", () => {
    const sum = new ExactNumber("0.30000000");
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(stringifyJson({ amount: sum })).toBe('{"amount":0.3}');
    expect(stringifyJson({ amount: new ExactNumber("123456789012.12345678") })).toBe(
      '{"amount":123456789012.12345678}',
    );
  });

  it("never uses exponent notation for tiny or huge values", () => {
    expect(stringifyJson([new ExactNumber("0.00000001"), new ExactNumber("-99999999999.99999999")])).toBe(
      "[0.00000001,-99999999999.99999999]",
    );
  });

  it("matches JSON.stringify for ordinary values", () => {
    const value = { a: 'x"\u0000y', b: [1, true, null], c: { d: undefined, e: "é" } };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });
});

describe("ExactNumber", () => {
  it("normalizes to canonical JSON number text", () => {
    expect(new ExactNumber("0012.5000").digits).toBe("12.5");
    expect(new ExactNumber("-0.000").digits).toBe("0");
    expect(new ExactNumber("100").digits).toBe("100");
    expect(new ExactNumber("-5.10").digits).toBe("-5.1");
  });

  it("rejects text that is not a plain decimal", () => {
    for (const bad of ["1e5", "abc", "", "1.2.3", "NaN", "Infinity"]) {
      expect(() => new ExactNumber(bad)).toThrow(TypeError);
    }
  });
});
