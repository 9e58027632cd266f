import { describe, expect, it } from "vitest";
import { formatTick, niceStep, valueAxis } from "./axis-ticks.ts";

const labels = (values: number[], maxTicks: number, currency: string) => {
  const axis = valueAxis(values, maxTicks);
  return { axis, labels: axis.ticks.map((t) => formatTick(t, axis, currency, "en-US")) };
};

describe("niceStep", () => {
  it("picks 1, 2, 2.5 or 5 × 10ⁿ", () => {
    expect(niceStep(10, 5)).toBe(2);
    expect(niceStep(1.2, 5)).toBe(0.25);
    expect(niceStep(0.0015, 5)).toBeCloseTo(0.0005, 12);
    expect(niceStep(3_400_000, 5)).toBe(1_000_000);
  });
});

describe("valueAxis + formatTick", () => {
  it("BTC 0.00022…0.0015: distinct labels with the decimals the step needs (not all '0')", () => {
    const { axis, labels: l } = labels([0.00022, 0.0009, 0.0015], 5, "BTC");
    expect(axis.ticks).toEqual([0, 0.0005, 0.001, 0.0015]);
    expect(l).toEqual(["0.0000", "0.0005", "0.0010", "0.0015"]);
    expect(new Set(l).size).toBe(l.length);
  });

  it("ETH 0.3…1.2: quarter steps, two decimals, not 0/0.3/0.5/0.8/1", () => {
    const { axis, labels: l } = labels([0.3, 0.75, 1.2], 5, "ETH");
    expect(axis.ticks).toEqual([0, 0.25, 0.5, 0.75, 1, 1.25]);
    expect(l).toEqual(["0.00", "0.25", "0.50", "0.75", "1.00", "1.25"]);
  });

  it("JPY millions: compact labels with the yen sign", () => {
    const { axis, labels: l } = labels([1_200_000, 3_400_000], 5, "JPY");
    expect(axis.compact).toBe(true);
    expect(axis.ticks).toEqual([0, 1_000_000, 2_000_000, 3_000_000, 4_000_000]);
    expect(l).toEqual(["¥0", "¥1M", "¥2M", "¥3M", "¥4M"]);
  });

  it("compact labels keep the digits a 250K step needs", () => {
    const { labels: l } = labels([1_250_000], 5, "JPY");
    expect(l).toEqual(["¥0", "¥250K", "¥500K", "¥750K", "¥1M", "¥1.25M"]);
  });

  it("GBP hundreds: whole pounds, not compact", () => {
    const { axis, labels: l } = labels([120, 480], 5, "GBP");
    expect(axis.compact).toBe(false);
    expect(l).toEqual(["£0", "£100", "£200", "£300", "£400", "£500"]);
  });

  it("negative nets: the axis spans below zero and labels carry the sign", () => {
    const { axis, labels: l } = labels([-0.8, 0.35], 5, "ETH");
    expect(axis.domain).toEqual([-1, 0.5]);
    expect(l).toEqual(["-1.00", "-0.75", "-0.50", "-0.25", "0.00", "0.25", "0.50"]);
  });

  it("a phone gets fewer ticks for the same data", () => {
    const desktop = valueAxis([0.3, 1.2], 5);
    const phone = valueAxis([0.3, 1.2], 3);
    expect(phone.ticks.length).toBeLessThan(desktop.ticks.length);
    expect(phone.ticks).toEqual([0, 0.5, 1, 1.5]);
  });

  it("all-zero data still has an axis", () => {
    const { labels: l } = labels([0, 0], 5, "EUR");
    expect(l).toEqual(["€0.0", "€0.2", "€0.4", "€0.6", "€0.8", "€1.0"]);
  });
});
