import { type DecimalTree, decimalChild, parseWire } from "@/platform/client/wire-codec";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { JsonText } from "@/platform/schemas/json-text";

/**
 * A read's body as the browser holds it after `apiGet`: what `stringifyJson` writes, parsed back by
 * `parseWire(…, decimals)`, without the JSON text in between. A number where `decimals` (the response's entry in
 * platform/client/wire-decimals.ts) has a decimal (an ExactNumber or a plain number) becomes its digits, any other
 * ExactNumber a number; dates become ISO strings; undefined properties vanish (null in an array), as
 * JSON.stringify does. Server rendering hands these values to the browser's query cache, so the cache holds one
 * shape whoever read it (`wire-shape.test.ts` checks it against the JSON round trip).
 */
export function toWireShape(value: unknown, decimals: DecimalTree | undefined, key = ""): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return wireNumber(value, decimals === true);
  if (value instanceof ExactNumber) return decimals === true ? value.digits : Number(value.digits);
  if (typeof value !== "object") return undefined;
  // JSON text (a body the database wrote) is read as the browser reads it.
  if (value instanceof JsonText) return parseWire(value.text, decimals ?? {});
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return toWireShape((value as { toJSON(key: string): unknown }).toJSON(key), decimals, key);
  }
  if (Array.isArray(value)) {
    const items = decimalChild(decimals, 0);
    return value.map((item, index) => toWireShape(item, items, String(index)) ?? null);
  }
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const wire = toWireShape(item, decimalChild(decimals, name), name);
    if (wire !== undefined) out[name] = wire;
  }
  return out;
}

/** A JavaScript number as JSON writes it (non-finite: null) and the lossless parse reads it back. */
function wireNumber(value: number, decimal: boolean): unknown {
  if (!Number.isFinite(value)) return null;
  return decimal ? JSON.stringify(value) : value;
}
