import { describe, expect, it } from "vitest";
import { MAX_TO_MONTH, MIN_TO_MONTH, monthlyActivityQuerySchema } from "@/features/players/schema/activity";
import { activityWindow } from "./get-player-monthly-activity.ts";

describe("activityWindow", () => {
  it("ends with the given month and crosses year boundaries", () => {
    const w = activityWindow(3, "2026-02");
    expect(w.labels).toEqual(["2025-12", "2026-01", "2026-02"]);
    expect(w.from.toISOString()).toBe("2025-12-01T00:00:00.000Z");
    expect(w.to.toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("defaults to the UTC month of now", () => {
    // 23:30 on 31 December in UTC−2 is already January in UTC.
    const w = activityWindow(1, undefined, new Date("2027-01-01T01:30:00Z"));
    expect(w.labels).toEqual(["2027-01"]);
  });

  it("ends a December window at the next January", () => {
    expect(activityWindow(12, "2026-12").to.toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(activityWindow(12, "2026-12").labels[0]).toBe("2026-01");
  });
});

describe("to_month bounds: the window's `to` stays an RFC 3339 date-time", () => {
  const parse = (qs: string) =>
    monthlyActivityQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(qs)));

  it(`accepts ${MAX_TO_MONTH}, the last month whose next month has a four-digit year`, () => {
    const query = parse(`to_month=${MAX_TO_MONTH}&months=1`);
    expect(query.success).toBe(true);
    const w = activityWindow(1, MAX_TO_MONTH);
    expect(w.to.toISOString()).toBe("9999-12-01T00:00:00.000Z");
  });

  it("rejects 9999-12 (its next month is year 10000), naming the bound", () => {
    const query = parse("to_month=9999-12&months=1");
    expect(query.success).toBe(false);
    expect(query.error?.issues[0]?.path).toEqual(["to_month"]);
    expect(query.error?.issues[0]?.message).toContain(MAX_TO_MONTH);
  });

  it(`accepts ${MIN_TO_MONTH} and rejects the month before`, () => {
    expect(parse(`to_month=${MIN_TO_MONTH}&months=36`).success).toBe(true);
    expect(parse("to_month=1899-12").success).toBe(false);
  });
});
