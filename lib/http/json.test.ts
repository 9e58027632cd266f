import { describe, expect, it } from "vitest";
import { ExactNumber } from "../schemas/exact-number.ts";
import { stringifyJson } from "./json.ts";

const hasRawJson = "rawJSON" in JSON;

// Both ways of writing exact decimals: the Node 20 one (markers) on every runtime, JSON.rawJSON where it exists.
const ways = [
  { name: "markers (Node 20)", write: (v: unknown) => stringifyJson(v, { rawJson: false }) },
  ...(hasRawJson ? [{ name: "JSON.rawJSON", write: (v: unknown) => stringifyJson(v) }] : []),
];

describe.each(ways)("stringifyJson with $name", ({ write }) => {
  it("writes exact decimals verbatim, where floating point would drift", () => {
    const sum = new ExactNumber("0.30000000");
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(write({ amount: sum })).toBe('{"amount":0.3}');
    expect(write({ amount: new ExactNumber("123456789012.12345678") })).toBe(
      '{"amount":123456789012.12345678}',
    );
  });

  it("never uses exponent notation for tiny or huge values", () => {
    expect(write([new ExactNumber("0.00000001"), new ExactNumber("-99999999999.99999999")])).toBe(
      "[0.00000001,-99999999999.99999999]",
    );
  });

  it("matches JSON.stringify for ordinary values", () => {
    const value = {
      a: 'x"\u0000y',
      b: [1, true, null, undefined],
      c: { d: undefined, e: "é", f: new Date(0) },
    };
    expect(write(value)).toBe(JSON.stringify(value));
    expect(write(undefined)).toBe("null");
  });

  it("writes decimals inside nested objects and arrays, beside text that looks like them", () => {
    const value = {
      balances: {
        total: new ExactNumber("10.50"),
        list: [new ExactNumber("-0.001"), { x: new ExactNumber("7") }],
      },
      note: '"exact-00000000000000000000000000000000:12"',
      name: "exact-deadbeef:1.5",
    };
    expect(JSON.parse(write(value))).toEqual({
      balances: { total: 10.5, list: [-0.001, { x: 7 }] },
      note: '"exact-00000000000000000000000000000000:12"',
      name: "exact-deadbeef:1.5",
    });
    expect(write(value)).toContain('"total":10.5,"list":[-0.001,{"x":7}]');
  });
});

describe("ExactNumber outside stringifyJson", () => {
  it("is a plain (lossy) number for any other JSON.stringify, also right after a response was written", () => {
    stringifyJson({ a: new ExactNumber("1.10") }, { rawJson: false });
    expect(JSON.stringify({ a: new ExactNumber("1.10") })).toBe('{"a":1.1}');
  });

  it("leaves no marker behind when the value cannot be written", () => {
    const cyclic: Record<string, unknown> = { a: new ExactNumber("1") };
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic, { rawJson: false })).toThrow(TypeError);
    expect(JSON.stringify(new ExactNumber("2.5"))).toBe("2.5");
  });
});

describe("ExactNumber", () => {
  it("normalizes to canonical JSON number text", () => {
    expect(new ExactNumber("0012.5000").digits).toBe("12.5");
    expect(new ExactNumber("-0.000").digits).toBe("0");
    expect(new ExactNumber("100").digits).toBe("100");
    expect(new ExactNumber("-5.10").digits).toBe("-5.1");
    expect(new ExactNumber("-0").digits).toBe("0");
    expect(new ExactNumber("0.0").digits).toBe("0");
    expect(new ExactNumber("-0.5").digits).toBe("-0.5");
    expect(new ExactNumber("00.5").digits).toBe("0.5");
    expect(new ExactNumber("+7").digits).toBe("7");
    expect(new ExactNumber(" 12 ").digits).toBe("12");
  });

  it("rejects text that is not a plain decimal", () => {
    for (const bad of ["1e5", "abc", "", "1.2.3", "NaN", "Infinity"]) {
      expect(() => new ExactNumber(bad)).toThrow(TypeError);
    }
  });
});
