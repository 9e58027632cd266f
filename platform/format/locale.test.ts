import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * The formatters in a process whose own default locale is German (as a server started with LANG=de_DE, or a
 * browser set to German, would have): they still write the display locale's figures, the ones the other side of
 * hydration writes.
 */
function formatInGermanProcess(): Record<string, string> {
  const module = (file: string) => JSON.stringify(new URL(file, import.meta.url).pathname);
  const script = `
    const { formatMoney, formatCount } = await import(${module("./money.ts")});
    const { formatDateTime, formatRelative } = await import(${module("./dates.ts")});
    const { monthLabel } = await import(${module("../../features/players/client/activity-chart.ts")});
    const at = "2026-11-20T12:00:00Z";
    console.log(JSON.stringify({
      own: new Intl.NumberFormat().format(1234.5),
      money: formatMoney("1234.5", "EUR"),
      crypto: formatMoney("-1.5", "BTC", { signed: true }),
      count: formatCount(24000),
      dateTime: formatDateTime(at, "utc"),
      relative: formatRelative("2026-11-17T12:00:00Z", Date.parse(at)),
      month: monthLabel("2026-11", "long"),
    }));`;
  const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, LC_ALL: "de_DE.UTF-8", LANG: "de_DE.UTF-8" },
  });
  return JSON.parse(output.toString()) as Record<string, string>;
}

describe("the display locale", () => {
  it("formats money, counts and dates the same whatever the process's own locale", () => {
    const figures = formatInGermanProcess();
    // The process really is German: its own default writes a decimal comma.
    expect(figures.own).toBe("1.234,5");
    expect(figures).toMatchObject({
      money: "€1,234.50",
      crypto: "-1.50000000 BTC",
      count: "24,000",
      dateTime: "Nov 20, 2026, 12:00",
      relative: "3 days ago",
      month: "November 2026",
    });
  });
});
