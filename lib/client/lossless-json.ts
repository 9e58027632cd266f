const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MARK = "\u0000";

/**
 * JSON.parse, except that numbers under the keys in `decimalKeys` become strings holding their exact
 * digits. The API writes money as JSON numbers with up to 20 significant digits, more than a double
 * keeps; Intl.NumberFormat formats decimal strings exactly. Other numbers are ordinary numbers.
 * `decimal` may wrap those digits (db:import makes them ExactNumber, so a JSON string is still told apart).
 */
export function parseJsonWithDecimals(
  text: string,
  decimalKeys: ReadonlySet<string>,
  decimal: (digits: string) => unknown = (digits) => digits,
): unknown {
  let out = "";
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
    } else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) continue; // not a number: JSON.parse reports the syntax error below
      out += `${text.slice(last, i)}"\\u0000${match[0]}"`;
      i += match[0].length - 1;
      last = i + 1;
    }
  }
  out += text.slice(last);
  return JSON.parse(out, (key, value) => {
    if (typeof value === "string" && value.startsWith(MARK)) {
      const digits = value.slice(1);
      return decimalKeys.has(key) ? decimal(digits) : Number(digits);
    }
    return value;
  });
}
