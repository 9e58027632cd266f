import { DISPLAY_LOCALE } from "../../../platform/format/locale.ts";
import { isIsoCurrency } from "../../../platform/format/money.ts";

/** A value axis: its domain, its ticks and how to label them. */
export type ValueAxis = {
  domain: [number, number];
  ticks: number[];
  /** Fraction digits every label uses: enough to tell two adjacent ticks apart. */
  decimals: number;
  /** Whether labels use compact notation (1.5M) because the amounts are large whole units. */
  compact: boolean;
};

/** The "nice" step (1, 2, 2.5 or 5 × 10ⁿ) that splits `span` into at most `maxTicks` intervals. */
export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const raw = span / Math.max(1, maxTicks);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Fraction digits the step needs, so that 0.00025 steps do not all read "0". */
function decimalsFor(step: number): number {
  if (step >= 1) return 0;
  // Round away floating noise (0.1 + 0.2) before counting digits.
  const text = step.toFixed(12).replace(/0+$/, "");
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Snaps a computed tick to the step's digits, so 0.30000000000000004 becomes 0.3. */
function snap(value: number, decimals: number): number {
  const snapped = Number(value.toFixed(Math.min(20, decimals + 2)));
  return Object.is(snapped, -0) ? 0 : snapped;
}

/**
 * A value axis for the data's range that always includes zero: nice steps, at most `maxTicks` intervals
 * (fewer on a phone), and labels with exactly the decimals the step needs.
 */
export function valueAxis(values: readonly number[], maxTicks: number): ValueAxis {
  const finite = values.filter(Number.isFinite);
  const min = Math.min(0, ...finite);
  // With no amounts at all, still draw a 0…1 axis rather than a single line.
  const max = Math.max(0, ...finite) || (min < 0 ? 0 : 1);
  const step = niceStep(max - min, maxTicks);
  const decimals = decimalsFor(step);
  const low = snap(Math.floor(min / step + 1e-9) * step, decimals);
  const high = snap(Math.ceil(max / step - 1e-9) * step, decimals);
  const ticks: number[] = [];
  const count = Math.round((high - low) / step);
  for (let i = 0; i <= count; i++) ticks.push(snap(low + i * step, decimals));
  // Compact notation only where whole units are large (JPY millions); never where it would hide digits.
  const compact = step >= 1000;
  return { domain: [low, high], ticks, decimals, compact };
}

const tickFormats = new Map<string, Intl.NumberFormat>();

/** A tick label: the axis's decimals, compact for large amounts, the currency's symbol where Intl has one. */
export function formatTick(
  value: number,
  axis: ValueAxis,
  currency: string,
  locale: string = DISPLAY_LOCALE,
): string {
  const iso = isIsoCurrency(currency);
  const key = `${locale}|${currency}|${axis.decimals}|${axis.compact}`;
  let format = tickFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      ...(iso ? { style: "currency", currency, currencyDisplay: "narrowSymbol" } : {}),
      ...(axis.compact
        ? { notation: "compact", maximumFractionDigits: 2 }
        : { minimumFractionDigits: axis.decimals, maximumFractionDigits: axis.decimals }),
    });
    tickFormats.set(key, format);
  }
  return format.format(value);
}
