import { isLosslessNumber, parse } from "lossless-json";

/**
 * Where a body's exact decimals are: `true` at a decimal, an object of the keys below it otherwise; `"*"` stands
 * for every item of an array (or every value of a record). Derived from the response's zod schema
 * (platform/schemas/decimal-tree.ts), never kept by hand: platform/client/wire-decimals.ts holds the browser's copy.
 */
export type DecimalTree = true | { readonly [key: string]: DecimalTree };

/** A body without exact decimals. */
export const NO_DECIMALS: DecimalTree = {};

/** The tree under `key` (an object's property or an array's index). */
export function decimalChild(tree: DecimalTree | undefined, key: string | number): DecimalTree | undefined {
  if (tree === undefined || tree === true) return undefined;
  return (typeof key === "string" ? tree[key] : undefined) ?? tree["*"];
}

/** Whether `path` (as zod's issues name it) leads to an exact decimal. */
export function isDecimalPath(tree: DecimalTree | undefined, path: readonly PropertyKey[]): boolean {
  let node = tree;
  for (const key of path) node = decimalChild(node, typeof key === "number" ? key : String(key));
  return node === true;
}

/**
 * JSON text → the value the pages hold: the API writes money as JSON numbers with up to 20 significant digits,
 * more than a double keeps, so the text is parsed losslessly and each number where `decimals` says so becomes
 * `decimal(digits)` (by default the string of its digits, which Intl.NumberFormat formats exactly); every
 * other number becomes a JavaScript number.
 */
export function parseWire(
  text: string,
  decimals: DecimalTree,
  decimal: (digits: string) => unknown = (digits) => digits,
): unknown {
  return decodeNumbers(parse(text), decimals, decimal);
}

function decodeNumbers(
  value: unknown,
  tree: DecimalTree | undefined,
  decimal: (digits: string) => unknown,
): unknown {
  if (isLosslessNumber(value)) return tree === true ? decimal(value.value) : Number(value.value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = tree === undefined || tree === true ? undefined : tree["*"];
    for (let i = 0; i < value.length; i++) value[i] = decodeNumbers(value[i], items, decimal);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    record[key] = decodeNumbers(record[key], decimalChild(tree, key), decimal);
  return record;
}
