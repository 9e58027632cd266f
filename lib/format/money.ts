const numberFormats = new Map<string, Intl.NumberFormat>();

let isoCurrencies: Set<string> | null | undefined;

/** Whether Intl knows the code as an ISO 4217 currency (crypto tickers such as BTC are not). */
export function isIsoCurrency(code: string): boolean {
  if (isoCurrencies === undefined) {
    try {
      isoCurrencies = new Set(Intl.supportedValuesOf("currency"));
    } catch {
      isoCurrencies = null;
    }
  }
  return isoCurrencies ? isoCurrencies.has(code) : /^[A-Z]{3}$/.test(code) && !["BTC", "ETH"].includes(code);
}

function numberFormat(currency: string, signed: boolean, locale: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ""}|${currency}|${signed}`;
  let format = numberFormats.get(key);
  if (!format) {
    const signDisplay = signed ? "exceptZero" : "auto";
    // Up to 8 fraction digits: the stored scale, so no amount is ever rounded for display.
    format = isIsoCurrency(currency)
      ? new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits: 8, signDisplay })
      : new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 8, signDisplay });
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * An exact decimal string as money in the browser's locale: the currency's symbol for ISO currencies,
 * the code after the number otherwise ("0.00412 BTC"). `signed` writes + for money in, − for money out.
 */
export function formatMoney(
  amount: string,
  currency: string,
  options: { signed?: boolean; locale?: string } = {},
): string {
  const format = numberFormat(currency, options.signed ?? false, options.locale);
  // Intl formats a decimal string exactly (no float round trip).
  const text = format.format(amount as Intl.StringNumericLiteral);
  return isIsoCurrency(currency) ? text : `${text} ${currency}`;
}

export type Direction = "in" | "out" | "none";

export function directionOf(amount: string): Direction {
  if (/^-/.test(amount) && /[1-9]/.test(amount)) return "out";
  return /[1-9]/.test(amount) ? "in" : "none";
}

const integerFormat = new Map<string, Intl.NumberFormat>();

/** A count with the locale's grouping: 1,234. */
export function formatCount(n: number, locale?: string): string {
  const key = locale ?? "";
  let f = integerFormat.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    integerFormat.set(key, f);
  }
  return f.format(n);
}
