import { ExactNumber } from "../schemas/exact-number.ts";

/**
 * JSON.stringify, except that ExactNumber values are written as their exact digits.
 * Node 20 has no JSON.rawJSON, so this walks the value itself; it handles what the API returns
 * (plain objects, arrays, strings, numbers, booleans, null, Dates, ExactNumber).
 */
export function stringifyJson(value: unknown): string {
  if (value instanceof ExactNumber) return value.digits;
  if (value === null || typeof value !== "object") {
    return value === undefined ? "null" : JSON.stringify(value);
  }
  if (value instanceof Date) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(",")}]`;
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === "function") continue;
    parts.push(`${JSON.stringify(key)}:${stringifyJson(item)}`);
  }
  return `{${parts.join(",")}}`;
}
