/** While platform/http/json.ts writes a response: what an ExactNumber stands for in JSON.stringify's output. */
let exactEncoding: ((digits: string) => unknown) | null = null;

/**
 * Runs `write` (a synchronous JSON.stringify) with every ExactNumber's toJSON answering `encode(digits)`.
 * JSON.stringify cannot yield, so no other request's serialization can see the setting.
 */
export function withExactJson<T>(encode: (digits: string) => unknown, write: () => T): T {
  const previous = exactEncoding;
  exactEncoding = encode;
  try {
    return write();
  } finally {
    exactEncoding = previous;
  }
}

/**
 * A decimal that must leave the API as a JSON number with exactly these digits (no float round-trip).
 * Money is read from PostgreSQL numeric as text and wrapped here; platform/http/json.ts writes it verbatim.
 */
export class ExactNumber {
  static readonly PATTERN = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
  private static readonly INPUT = /^[+-]?\d+(\.\d+)?$/;
  /** What normalize() returns: no sign on zero, no leading or trailing zeros. */
  private static readonly CANONICAL = /^(?:0|-?(?:[1-9]\d*(?:\.\d*[1-9])?|0\.\d*[1-9]))$/;

  readonly digits: string;

  constructor(text: string) {
    // Most values (Prisma's Decimal.toFixed()) are canonical already: one test instead of the checks below.
    if (ExactNumber.CANONICAL.test(text)) {
      this.digits = text;
      return;
    }
    if (!ExactNumber.INPUT.test(text.trim())) throw new TypeError(`Not a plain decimal: ${text}`);
    this.digits = ExactNumber.normalize(text);
  }

  /** "0012.5000" → "12.5", "-0.000" → "0": canonical JSON number text. */
  static normalize(text: string): string {
    let t = text.trim();
    const negative = t.startsWith("-");
    if (negative || t.startsWith("+")) t = t.slice(1);
    let [whole = "", frac = ""] = t.split(".");
    whole = whole.replace(/^0+(?=\d)/, "") || "0";
    frac = frac.replace(/0+$/, "");
    const body = frac ? `${whole}.${frac}` : whole;
    return negative && body !== "0" ? `-${body}` : body;
  }

  /** Anything that has a plain-notation toFixed() (Prisma's Decimal) or a decimal string. */
  static from(value: { toFixed(): string } | string): ExactNumber {
    return new ExactNumber(typeof value === "string" ? value : value.toFixed());
  }

  /** Exact inside platform/http/json.ts's stringifyJson; a lossy number for any other JSON.stringify. */
  toJSON(): unknown {
    return exactEncoding ? exactEncoding(this.digits) : Number(this.digits);
  }

  toString(): string {
    return this.digits;
  }
}
