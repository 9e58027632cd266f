import { parseJsonWithDecimals } from "@/lib/client/lossless-json";
import { DECIMAL_KEYS } from "@/lib/client/wire";
import { ExactNumber } from "@/lib/schemas/exact-number";
import { JsonText } from "@/lib/schemas/json-text";

/**
 * A read's body as the browser holds it after `apiGet`: what `stringifyJson` writes, parsed back by
 * `parseJsonWithDecimals(…, DECIMAL_KEYS)`, without the JSON text in between. A number under a decimal key
 * (an ExactNumber or a plain number) becomes its digits, any other ExactNumber a number; dates become ISO
 * strings; undefined properties vanish (null in an array), as JSON.stringify does. Server rendering hands
 * these values to the browser's query cache, so the cache holds one shape whoever read it
 * (`wire-shape.test.ts` checks it against the JSON round trip).
 */
export function toWireShape(value: unknown, key = ""): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return wireNumber(value, key);
  if (value instanceof ExactNumber) return DECIMAL_KEYS.has(key) ? value.digits : Number(value.digits);
  if (typeof value !== "object") return undefined;
  // JSON text (a body the database wrote) is read as the browser reads it.
  if (value instanceof JsonText) return parseJsonWithDecimals(value.text, DECIMAL_KEYS);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return toWireShape((value as { toJSON(key: string): unknown }).toJSON(key), key);
  }
  if (Array.isArray(value)) return value.map((item, index) => toWireShape(item, String(index)) ?? null);
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const wire = toWireShape(item, name);
    if (wire !== undefined) out[name] = wire;
  }
  return out;
}

/** A JavaScript number as JSON writes it (non-finite: null) and the lossless parse reads it back. */
function wireNumber(value: number, key: string): unknown {
  if (!Number.isFinite(value)) return null;
  return DECIMAL_KEYS.has(key) ? JSON.stringify(value) : value;
}
