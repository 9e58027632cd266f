import { DISPLAY_LOCALE } from "./locale.ts";

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

/**
 * Fraction digits the database keeps for every amount (NUMERIC(20, 8)); also the decimals every crypto
 * amount is written with: BTC's real unit is the satoshi (10⁻⁸), and ETH keeps what the database keeps.
 */
export const STORED_SCALE = 8;

function numberFormat(
  currency: string,
  signed: boolean,
  locale: string,
  minorUnits: boolean,
): Intl.NumberFormat {
  const key = `${locale}|${currency}|${signed}|${minorUnits}`;
  let format = numberFormats.get(key);
  if (!format) {
    const signDisplay = signed ? "exceptZero" : "auto";
    // Up to STORED_SCALE fraction digits, so no amount is ever rounded for display. ISO currencies show
    // at least their minor unit (€5.00); crypto always shows its full precision, so every amount of one
    // currency has the same number of decimals and lines up (0.00000000 BTC beside 0.00022000 BTC).
    format = isIsoCurrency(currency)
      ? new Intl.NumberFormat(locale, {
          style: "currency",
          currency,
          // Without a maximum, Intl uses the currency's minor unit (2 for EUR, 0 for JPY).
          ...(minorUnits ? {} : { maximumFractionDigits: STORED_SCALE }),
          signDisplay,
        })
      : new Intl.NumberFormat(locale, {
          minimumFractionDigits: STORED_SCALE,
          maximumFractionDigits: STORED_SCALE,
          signDisplay,
        });
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * An exact decimal string as money in the display locale (or `locale`): the currency's symbol for ISO currencies,
 * the code after the number otherwise ("0.00412 BTC"). `signed` writes + for money in, − for money out.
 * `minorUnits` rounds (half away from zero, in decimal, never through a float) to the currency's minor
 * unit, for derived figures such as averages whose 8 computed decimals would read as noise beside the
 * page's other amounts; crypto keeps its 8 either way.
 */
export function formatMoney(
  amount: string,
  currency: string,
  options: { signed?: boolean; locale?: string; minorUnits?: boolean } = {},
): string {
  const format = numberFormat(
    currency,
    options.signed ?? false,
    options.locale ?? DISPLAY_LOCALE,
    options.minorUnits ?? false,
  );
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
export function formatCount(n: number, locale: string = DISPLAY_LOCALE): string {
  let f = integerFormat.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    integerFormat.set(locale, f);
  }
  return f.format(n);
}
