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

  it("writes crypto tickers after the number with up to 8 decimals", () => {
    expect(isIsoCurrency("BTC")).toBe(false);
    expect(formatMoney("0.00012345", "BTC", { locale: "en-US" })).toBe("0.00012345 BTC");
    expect(formatMoney("2", "ETH", { locale: "en-US" })).toBe("2.00 ETH");
  });

  it("signs amounts by direction when asked", () => {
    expect(formatMoney("50", "GBP", { locale: "en-US", signed: true })).toBe("+£50.00");
    expect(formatMoney("-20.1", "GBP", { locale: "en-US", signed: true })).toBe("-£20.10");
    expect(formatMoney("0", "GBP", { locale: "en-US", signed: true })).toBe("£0.00");
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
