import { describe, expect, it } from "vitest";
import { type DecimalTree, parseWire } from "@/platform/client/wire-codec";
import { stringifyJson } from "@/platform/http/json";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { JsonText } from "@/platform/schemas/json-text";
import { toWireShape } from "./wire-shape.ts";

/** Where these cases' decimals are, as a response schema's tree says. */
const decimals: DecimalTree = {
  amount: true,
  balances: { total_balance: true, cash_balance: true },
  sum: true,
  wr: true,
  transactions: { "*": { amount: true } },
  nested: { "*": { "*": true } },
};

/** What the browser holds after the API's JSON: the oracle toWireShape must equal. */
const overJson = (value: unknown) => parseWire(stringifyJson(value), decimals);

describe("toWireShape: the browser's shape of a body without the JSON text", () => {
  const cases: Record<string, unknown> = {
    "money where the tree has a decimal keeps its digits": {
      amount: new ExactNumber("123456789012.12345678"),
      balances: { total_balance: new ExactNumber("-0.5"), cash_balance: new ExactNumber("0") },
    },
    "an ExactNumber elsewhere becomes a number, a decimal's key name alone counts for nothing": {
      count: new ExactNumber("42"),
      ratio: new ExactNumber("0.25"),
      other: { amount: new ExactNumber("1.5"), sum: 2 },
    },
    "a plain number where the tree has a decimal becomes digits": { sum: 5, amount: 1e21, wr: -0.125 },
    "arrays of arrays": { nested: [[new ExactNumber("0.00000001"), 3], []] },
    "plain numbers elsewhere stay numbers, non-finite become null": { total: 7, limit: 20, bad: Number.NaN },
    "dates become ISO strings": { at: new Date("2026-01-02T03:04:05.678Z") },
    "undefined properties vanish, in arrays they become null": {
      a: undefined,
      list: [undefined, 1, "x", null, true],
      f: () => 1,
    },
    "arrays of rows, elements' keys are indexes": {
      transactions: [
        { id: "t1", amount: new ExactNumber("1.10"), created_at: "2026-01-01T00:00:00.000Z" },
        { id: "t2", amount: new ExactNumber("-99999999999999.99999999"), note: null },
      ],
    },
  };
  for (const [name, value] of Object.entries(cases)) {
    it(name, () => {
      expect(toWireShape(value, decimals)).toEqual(overJson(value));
    });
    it(`${name}, as JSON text a statement wrote`, () => {
      const text = new JsonText(stringifyJson(value));
      expect(stringifyJson(text)).toBe(text.text);
      expect(toWireShape(text, decimals)).toEqual(overJson(value));
    });
  }

  it("keeps a decimal string a string and never turns money into a float", () => {
    const wire = toWireShape({ amount: new ExactNumber("0.1000000000000000000001") }, decimals) as {
      amount: unknown;
    };
    expect(wire.amount).toBe("0.1000000000000000000001");
  });
});
