import { randomBytes } from "node:crypto";
import { withExactJson } from "../schemas/exact-number.ts";
import { JsonText } from "../schemas/json-text.ts";

/*
 * JSON.stringify, except that ExactNumber values are written as their exact digits. The native JSON.stringify
 * walks the value either way (a walk in JavaScript was ~3% of a first page's CPU, docs/performance.md):
 *
 * - with JSON.rawJSON (Node 22+), each ExactNumber becomes its digits as raw JSON text;
 * - without it (Node 20), each becomes the string `<marker><digits>`, and `"<marker><digits>"` is replaced by the
 *   bare digits afterwards. The marker holds 128 random bits drawn at start and is never sent (every occurrence
 *   is replaced), so no stored text can forge one; the digits are ExactNumber's canonical form, which needs no
 *   escaping inside a JSON string.
 */

type RawJson = (text: string) => unknown;
const nativeRawJson = (JSON as unknown as { rawJSON?: RawJson }).rawJSON;

const MARKER = `exact-${randomBytes(16).toString("hex")}:`;
const MARKED = new RegExp(`"${MARKER}(-?\\d+(?:\\.\\d+)?)"`, "g");
const marked = (digits: string) => `${MARKER}${digits}`;

/**
 * JSON text of `value` with exact decimals. `rawJson: false` forces the Node 20 way on any runtime (tests).
 * Like JSON.stringify, except that a value with no JSON text (undefined) gives "null", and a JsonText (a body
 * the database wrote) is its text.
 */
export function stringifyJson(value: unknown, options: { rawJson?: boolean } = {}): string {
  if (value instanceof JsonText) return value.text;
  const raw = (options.rawJson ?? true) ? nativeRawJson : undefined;
  const text = withExactJson(raw ?? marked, () => JSON.stringify(value) as string | undefined);
  if (text === undefined) return "null";
  return raw ? text : text.replace(MARKED, "$1");
}
