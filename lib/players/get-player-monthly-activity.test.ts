import { describe, expect, it } from "vitest";
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
