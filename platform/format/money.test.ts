import { describe, expect, it } from "vitest";
import { directionOf, formatMoney, isIsoCurrency } from "./money.ts";

describe("formatMoney", () => {
  it("formats exact decimal strings in the currency, never rounding stored digits", () => {
    expect(formatMoney("1234.5", "EUR", { locale: "en-US" })).toBe("€1,234.50");
    expect(formatMoney("1234.505", "EUR", { locale: "en-US" })).toBe("€1,234.505");
    expect(formatMoney("123456789012.12345678", "USD", { locale: "en-US" })).toBe(
      "$123,456,789,012.12345678",
    );
    expect(formatMoney("1500", "JPY", { locale: "en-US" })).toBe("¥1,500");
  });

  it("follows the locale", () => {
    expect(formatMoney("1234.5", "EUR", { locale: "de-DE" })).toBe("1.234,50\u00a0€");
  });

  it("writes crypto tickers after the number, always with all 8 decimals", () => {
    expect(isIsoCurrency("BTC")).toBe(false);
    expect(formatMoney("0.00012345", "BTC", { locale: "en-US" })).toBe("0.00012345 BTC");
    // One precision per currency: a zero balance beside a small amount reads with the same decimals.
    expect(formatMoney("0", "BTC", { locale: "en-US" })).toBe("0.00000000 BTC");
    expect(formatMoney("0.00022", "BTC", { locale: "en-US" })).toBe("0.00022000 BTC");
    expect(formatMoney("2", "ETH", { locale: "en-US" })).toBe("2.00000000 ETH");
    expect(formatMoney("-1.5", "BTC", { locale: "en-US", signed: true })).toBe("-1.50000000 BTC");
  });

  it("keeps every digit of large crypto amounts (no float round trip)", () => {
    expect(formatMoney("12345678901.23456789", "BTC", { locale: "en-US" })).toBe(
      "12,345,678,901.23456789 BTC",
    );
    expect(formatMoney("9007199254740993.00000001", "ETH", { locale: "en-US" })).toBe(
      "9,007,199,254,740,993.00000001 ETH",
    );
  });

  it("signs amounts by direction when asked", () => {
    expect(formatMoney("50", "GBP", { locale: "en-US", signed: true })).toBe("+£50.00");
    expect(formatMoney("-20.1", "GBP", { locale: "en-US", signed: true })).toBe("-£20.10");
    expect(formatMoney("0", "GBP", { locale: "en-US", signed: true })).toBe("£0.00");
  });
});

describe("formatMoney with minorUnits (averages)", () => {
  it("rounds to the currency's minor unit in decimal, half away from zero", () => {
    expect(formatMoney("2910.14198113", "BRL", { locale: "en-US", minorUnits: true })).toBe("R$2,910.14");
    expect(formatMoney("0.005", "EUR", { locale: "en-US", minorUnits: true })).toBe("€0.01");
    expect(formatMoney("-0.005", "EUR", { locale: "en-US", minorUnits: true })).toBe("-€0.01");
    // Beyond a double's precision: decimal rounding, not a float round trip.
    expect(formatMoney("90071992547409.935", "USD", { locale: "en-US", minorUnits: true })).toBe(
      "$90,071,992,547,409.94",
    );
    expect(formatMoney("1234.5", "JPY", { locale: "en-US", minorUnits: true })).toBe("¥1,235");
  });

  it("keeps all 8 decimals for crypto", () => {
    expect(formatMoney("0.00012345", "BTC", { locale: "en-US", minorUnits: true })).toBe("0.00012345 BTC");
  });
});

describe("directionOf", () => {
  it("reads the sign of a decimal string", () => {
    expect(directionOf("12.5")).toBe("in");
    expect(directionOf("-0.00000001")).toBe("out");
    expect(directionOf("0")).toBe("none");
    expect(directionOf("-0")).toBe("none");
  });
});
