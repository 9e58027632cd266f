import { describe, expect, it } from "vitest";
import { z } from "zod";
import { WIRE_DECIMALS } from "@/platform/client/wire-decimals";
import { WIRE_SCHEMAS } from "../../tools/wire-schemas.ts";
import { exactNumberSchema } from "./common.ts";
import { decimalTree } from "./decimal-tree.ts";

describe("decimalTree: where a schema's exact decimals are", () => {
  it("finds `format: decimal` fields, copies with their own description too, through wrappers", () => {
    const schema = z.object({
      amount: exactNumberSchema,
      described: exactNumberSchema.meta({ description: "a copy keeps the marker" }),
      count: z.number().int(),
      maybe: exactNumberSchema.nullable().optional(),
      rows: z.array(z.object({ sum: exactNumberSchema, label: z.string() })),
      byKey: z.record(z.string(), z.object({ v: exactNumberSchema })),
      either: z.union([
        z.object({ a: exactNumberSchema }),
        z.object({ b: exactNumberSchema, a: exactNumberSchema }),
      ]),
      piped: z.object({ p: exactNumberSchema }).transform((o) => o),
      none: z.object({ n: z.number() }),
    });
    expect(decimalTree(schema)).toEqual({
      amount: true,
      described: true,
      maybe: true,
      rows: { "*": { sum: true } },
      byKey: { "*": { v: true } },
      either: { a: true, b: true },
      piped: { p: true },
    });
    expect(decimalTree(z.object({ n: z.number() }))).toBeUndefined();
  });

  it("refuses a key that is a decimal in one branch and an object in another", () => {
    const clash = z.union([
      z.object({ a: exactNumberSchema }),
      z.object({ a: z.object({ b: exactNumberSchema }) }),
    ]);
    expect(() => decimalTree(clash)).toThrow(/exact decimal in one branch/);
  });

  it("platform/client/wire-decimals.ts is what the schemas say (else: npx tsx tools/wire-decimals.ts)", () => {
    for (const [name, schema] of Object.entries(WIRE_SCHEMAS)) {
      expect(WIRE_DECIMALS[name as keyof typeof WIRE_SCHEMAS], name).toEqual(decimalTree(schema) ?? {});
    }
    expect(Object.keys(WIRE_DECIMALS).sort()).toEqual(Object.keys(WIRE_SCHEMAS).sort());
  });
});
