import { z } from "zod";
import type { DecimalTree } from "@/platform/client/wire-codec";

/** The parts of a zod 4 definition the walk reads (each kind has some of them). */
interface LooseDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: readonly z.ZodType[];
  valueType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: readonly z.ZodType[];
  rest?: z.ZodType | null;
  getter?: () => z.ZodType;
}

/** Whether the schema is marked `format: decimal` (platform/schemas/common.ts's exactNumberSchema and its copies). */
export function isDecimalSchema(schema: z.ZodType): boolean {
  const override = (z.globalRegistry.get(schema) as { override?: unknown } | undefined)?.override;
  return (
    typeof override === "object" &&
    override !== null &&
    (override as { format?: unknown }).format === "decimal"
  );
}

/**
 * Where the schema's exact decimals are, as platform/client/wire-codec.ts reads them; undefined when it has none.
 * Union branches merge (a key that is a decimal in one branch and an object in another is refused).
 */
export function decimalTree(schema: z.ZodType, seen: Set<z.ZodType> = new Set()): DecimalTree | undefined {
  if (isDecimalSchema(schema)) return true;
  if (seen.has(schema)) return undefined; // a recursive schema: its decimals are found on the first visit
  seen.add(schema);
  try {
    const def = (schema as unknown as { _zod: { def: LooseDef } })._zod.def;
    switch (def.type) {
      case "object": {
        const out: Record<string, DecimalTree> = {};
        for (const [key, field] of Object.entries(def.shape ?? {})) {
          const tree = decimalTree(field, seen);
          if (tree !== undefined) out[key] = tree;
        }
        return Object.keys(out).length > 0 ? out : undefined;
      }
      case "array":
      case "set":
        return wrap("*", def.element && decimalTree(def.element, seen));
      case "record":
      case "map":
        return wrap("*", def.valueType && decimalTree(def.valueType, seen));
      case "tuple":
        return wrap(
          "*",
          merge([...(def.items ?? []), ...(def.rest ? [def.rest] : [])].map((s) => decimalTree(s, seen))),
        );
      case "union":
        return merge((def.options ?? []).map((option) => decimalTree(option, seen)));
      case "intersection":
        return merge([def.left, def.right].map((side) => side && decimalTree(side, seen)));
      case "pipe":
        // A transform's output has no schema: what goes in is what was sent.
        return merge([def.in, def.out].map((side) => side && decimalTree(side, seen)));
      case "lazy":
        return def.getter ? decimalTree(def.getter(), seen) : undefined;
      default:
        // optional, nullable, default, readonly, catch, …: the schema they wrap.
        return def.innerType ? decimalTree(def.innerType, seen) : undefined;
    }
  } finally {
    seen.delete(schema);
  }
}

function wrap(key: string, tree: DecimalTree | undefined): DecimalTree | undefined {
  return tree === undefined ? undefined : { [key]: tree };
}

function merge(trees: readonly (DecimalTree | undefined)[]): DecimalTree | undefined {
  let out: DecimalTree | undefined;
  for (const tree of trees) {
    if (tree === undefined) continue;
    if (out === undefined) out = tree;
    else if (out === true || tree === true) {
      if (out !== tree) throw new Error("a key is an exact decimal in one branch and an object in another");
    } else {
      const merged: Record<string, DecimalTree> = { ...out };
      for (const [key, child] of Object.entries(tree)) {
        const both = merge([merged[key], child]);
        if (both !== undefined) merged[key] = both;
      }
      out = merged;
    }
  }
  return out;
}
