import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
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

/** Values whose exact text each way must write, and that text. */
const CASES: [unknown, string][] = [
  [{ amount: new ExactNumber("0.30000000") }, '{"amount":0.3}'],
  [{ amount: new ExactNumber("123456789012.12345678") }, '{"amount":123456789012.12345678}'],
  [
    [new ExactNumber("0.00000001"), new ExactNumber("-99999999999.99999999")],
    "[0.00000001,-99999999999.99999999]",
  ],
  [
    { a: [new ExactNumber("-0.001"), { x: new ExactNumber("7") }], n: "exact-deadbeef:1.5" },
    '{"a":[-0.001,{"x":7}],"n":"exact-deadbeef:1.5"}',
  ],
];

/**
 * A Node with JSON.rawJSON (22+) to run the production path in: RAW_JSON_NODE, else this process's own Node,
 * else `node` on PATH, the first that has it. Node 24 is what production runs; CI's suite runs on Node 20 and
 * its Node 24 pass (.ci/run) runs this file again, where the in-process `JSON.rawJSON` cases run as well.
 */
function nodeWithRawJson(): string | null {
  for (const bin of [process.env.RAW_JSON_NODE, process.execPath, "node"]) {
    if (!bin) continue;
    try {
      const kind = execFileSync(bin, ["-p", "typeof JSON.rawJSON"], { encoding: "utf8" }).trim();
      if (kind === "function") return bin;
    } catch {
      // not a Node binary: try the next
    }
  }
  return null;
}

const rawJsonNode = nodeWithRawJson();

describe("the JSON.rawJSON path", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  // Node 20 has no JSON.rawJSON: a recorder in its place shows what the branch hands it and that the text
  // JSON.stringify writes is taken as it is (no marker pass). What the real rawJSON then writes is the child test.
  it("hands JSON.rawJSON each decimal's canonical digits and keeps JSON.stringify's text as it is", async () => {
    const seen: string[] = [];
    const recorder = (text: string) => {
      seen.push(text);
      return `raw(${text})`;
    };
    vi.stubGlobal("JSON", Object.assign(Object.create(JSON) as JSON, { rawJSON: recorder }));
    vi.resetModules();
    const { stringifyJson: withRaw } = await import("./json.ts");
    const { ExactNumber: Exact } = await import("../schemas/exact-number.ts");
    const text = withRaw({
      a: new Exact("0012.50"),
      b: [new Exact("-0.000"), "exact-x:1"],
      c: new Exact("7"),
    });
    expect(seen).toEqual(["12.5", "0", "7"]);
    expect(text).toBe('{"a":"raw(12.5)","b":["raw(0)","exact-x:1"],"c":"raw(7)"}');
    // Forced off, the same module takes the marker way and never calls rawJSON.
    expect(withRaw({ a: new Exact("1.10") }, { rawJson: false })).toBe('{"a":1.1}');
    expect(seen).toHaveLength(3);
  });

  it.skipIf(rawJsonNode === null)(
    `writes exact decimals on a Node that has JSON.rawJSON (${rawJsonNode ?? "none found: set RAW_JSON_NODE"})`,
    () => {
      const script = `
        const { stringifyJson } = await import("./platform/http/json.ts");
        const { ExactNumber } = await import("./platform/schemas/exact-number.ts");
        const n = (d) => new ExactNumber(d);
        const values = [
          { amount: n("0.30000000") },
          { amount: n("123456789012.12345678") },
          [n("0.00000001"), n("-99999999999.99999999")],
          { a: [n("-0.001"), { x: n("7") }], n: "exact-deadbeef:1.5" },
        ];
        console.log(JSON.stringify({
          version: process.version,
          raw: values.map((v) => stringifyJson(v)),
          markers: values.map((v) => stringifyJson(v, { rawJson: false })),
        }));`;
      const out = execFileSync(
        rawJsonNode as string,
        ["--import", "tsx", "--input-type=module", "-e", script],
        {
          cwd: process.cwd(),
          encoding: "utf8",
        },
      );
      const result = JSON.parse(out) as { version: string; raw: string[]; markers: string[] };
      const expected = CASES.map(([, text]) => text);
      expect(result.raw, result.version).toEqual(expected);
      expect(result.markers, result.version).toEqual(expected);
    },
  );
});
