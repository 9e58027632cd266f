/*
 * Exact arithmetic on the API's decimal strings (up to 8 places, the stored scale), in integers of 10⁻⁸: money is
 * never added or subtracted through a float. Shared by the server (monthly net figures) and the browser (changes).
 */
const SCALE = 8;
const UNIT = 10n ** BigInt(SCALE);

/** An exact decimal string as an integer count of 10⁻⁸. */
export function toUnits(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!m) throw new Error(`not an exact decimal with at most ${SCALE} places: ${text}`);
  const units = BigInt(m[2] ?? "0") * UNIT + BigInt((m[3] ?? "").padEnd(SCALE, "0") || "0");
  return m[1] === "-" ? -units : units;
}

/** Units of 10⁻⁸ back to a decimal string without trailing zeros ("-0" never). */
export function fromUnits(units: bigint): string {
  const sign = units < 0n ? "-" : "";
  const abs = units < 0n ? -units : units;
  const fraction = (abs % UNIT).toString().padStart(SCALE, "0").replace(/0+$/, "");
  return `${sign}${abs / UNIT}${fraction ? `.${fraction}` : ""}`;
}

/** `a − b`, exactly. */
export function subtractExact(a: string, b: string): string {
  return fromUnits(toUnits(a) - toUnits(b));
}
