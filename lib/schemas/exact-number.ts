/**
 * A decimal that must leave the API as a JSON number with exactly these digits (no float round-trip).
 * Money is read from PostgreSQL numeric as text and wrapped here; lib/http/json.ts writes it verbatim.
 */
export class ExactNumber {
  static readonly PATTERN = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
  private static readonly INPUT = /^[+-]?\d+(\.\d+)?$/;

  readonly digits: string;

  constructor(text: string) {
    if (!ExactNumber.INPUT.test(text.trim())) throw new TypeError(`Not a plain decimal: ${text}`);
    const digits = ExactNumber.normalize(text);
    this.digits = digits;
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

  /** Lossy fallback for plain JSON.stringify; API responses never go through it. */
  toJSON(): number {
    return Number(this.digits);
  }

  toString(): string {
    return this.digits;
  }
}
