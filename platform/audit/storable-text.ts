import "server-only";

// PostgreSQL text holds neither NUL nor an unpaired UTF-16 surrogate (JSON writes them as \u escapes it refuses).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storable(value: unknown, replaced: { any: boolean }): unknown {
  if (typeof value === "string") {
    const clean = value.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");
    if (clean !== value) replaced.any = true;
    return clean;
  }
  if (Array.isArray(value)) return value.map((v) => storable(v, replaced));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storable(k, replaced) as string, storable(v, replaced)]),
    );
  }
  return value;
}

/**
 * An audit row whose every text the database can store: what it cannot is replaced with U+FFFD and the row
 * says so (`text_replaced`), so a hostile name or parameter never costs the record.
 */
export function storableRow<T extends { text_replaced: boolean }>(row: T): T {
  const replaced = { any: false };
  const clean = storable(row, replaced) as T;
  return replaced.any ? { ...clean, text_replaced: true } : row;
}
