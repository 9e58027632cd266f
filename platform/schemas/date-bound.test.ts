import { describe, expect, it } from "vitest";
import { parseDateBound } from "./date-bound.ts";

const iso = (text: string, kind: "from" | "to") => parseDateBound(text, kind)?.at.toISOString();

describe("parseDateBound: date only", () => {
  it("from_date is the first millisecond of that UTC day", () => {
    expect(parseDateBound("2026-01-31", "from")).toEqual({
      at: new Date("2026-01-31T00:00:00.000Z"),
      exclusive: false,
    });
  });

  it("to_date covers the whole UTC day: strictly before the next midnight", () => {
    expect(parseDateBound("2026-01-31", "to")).toEqual({
      at: new Date("2026-02-01T00:00:00.000Z"),
      exclusive: true,
    });
    // Month and year roll-over.
    expect(iso("2025-12-31", "to")).toBe("2026-01-01T00:00:00.000Z");
    expect(iso("2024-02-29", "to")).toBe("2024-03-01T00:00:00.000Z");
  });

  it("accepts leap days only in leap years", () => {
    expect(iso("2024-02-29", "from")).toBe("2024-02-29T00:00:00.000Z");
    expect(iso("2000-02-29", "from")).toBe("2000-02-29T00:00:00.000Z");
    expect(parseDateBound("2025-02-29", "from")).toBeNull();
    expect(parseDateBound("1900-02-29", "to")).toBeNull();
  });

  it("rejects impossible calendar dates", () => {
    for (const text of ["2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00", "2025-01-32", "0000-01-01"]) {
      expect(parseDateBound(text, "from"), text).toBeNull();
      expect(parseDateBound(text, "to"), text).toBeNull();
    }
  });

  it("keeps years below 100 as written (no 19xx mapping)", () => {
    expect(iso("0001-01-01", "from")).toBe("0001-01-01T00:00:00.000Z");
    expect(iso("0099-12-31", "to")).toBe("0100-01-01T00:00:00.000Z");
  });

  it("handles the last representable day", () => {
    expect(iso("9999-12-31", "from")).toBe("9999-12-31T00:00:00.000Z");
    expect(parseDateBound("9999-12-31", "to")?.at.getTime()).toBe(Date.parse("+010000-01-01T00:00:00.000Z"));
  });
});

describe("parseDateBound: date-time", () => {
  it("reads Z, lower-case z and no offset as UTC", () => {
    for (const text of [
      "2026-01-31T23:59:59Z",
      "2026-01-31t23:59:59z",
      "2026-01-31T23:59:59",
      "2026-01-31 23:59:59",
    ]) {
      expect(iso(text, "to"), text).toBe("2026-01-31T23:59:59.000Z");
    }
  });

  it("applies ±hh:mm and ±hhmm offsets", () => {
    expect(iso("2026-01-31T23:59:59+02:00", "from")).toBe("2026-01-31T21:59:59.000Z");
    expect(iso("2026-01-31T23:59:59+0200", "from")).toBe("2026-01-31T21:59:59.000Z");
    expect(iso("2026-01-31T20:00:00-05:30", "from")).toBe("2026-02-01T01:30:00.000Z");
    expect(iso("2026-03-10T05:30:00+05:30", "from")).toBe("2026-03-10T00:00:00.000Z");
    expect(iso("2026-01-01T00:00:00-00:00", "from")).toBe("2026-01-01T00:00:00.000Z");
  });

  it("a date-time bound is never exclusive (inclusive on both ends)", () => {
    expect(parseDateBound("2026-01-31T23:59:59Z", "to")?.exclusive).toBe(false);
    expect(parseDateBound("2026-01-31T00:00:00Z", "from")?.exclusive).toBe(false);
  });

  it("seconds are optional; fractions use . or , with 1 to 9 digits", () => {
    expect(iso("2026-01-31T10:15Z", "from")).toBe("2026-01-31T10:15:00.000Z");
    expect(iso("2026-01-31T10:15:30.5Z", "from")).toBe("2026-01-31T10:15:30.500Z");
    expect(iso("2026-01-31T10:15:30,25Z", "from")).toBe("2026-01-31T10:15:30.250Z");
    expect(iso("2026-01-31T10:15:30.123Z", "from")).toBe("2026-01-31T10:15:30.123Z");
    expect(iso("2026-01-31T10:15:30.123456789Z", "to")).toBe("2026-01-31T10:15:30.123Z");
    expect(parseDateBound("2026-01-31T10:15:30.1234567890Z", "from")).toBeNull();
  });

  it("sub-millisecond digits: from_date rounds up to the next stored millisecond, to_date truncates", () => {
    // Stored times have millisecond precision. A row at .123 is before 10:15:30.1231 so from_date must skip it,
    // and it is before 10:15:30.1239 so to_date must keep it.
    expect(iso("2026-01-31T10:15:30.1231Z", "from")).toBe("2026-01-31T10:15:30.124Z");
    expect(iso("2026-01-31T10:15:30.1239Z", "to")).toBe("2026-01-31T10:15:30.123Z");
    expect(iso("2026-01-31T10:15:30.123000Z", "from")).toBe("2026-01-31T10:15:30.123Z");
    expect(iso("2026-01-31T23:59:59.9999Z", "from")).toBe("2026-02-01T00:00:00.000Z");
    expect(iso("2026-01-31T23:59:59.999999999Z", "to")).toBe("2026-01-31T23:59:59.999Z");
  });

  it("rejects out-of-range fields", () => {
    for (const text of [
      "2026-01-31T24:00:00Z",
      "2026-01-31T23:60:00Z",
      "2026-01-31T23:59:60Z",
      "2026-01-31T12:00:00+24:00",
      "2026-01-31T12:00:00+01:60",
      "2025-02-29T12:00:00Z",
      "2026-04-31T00:00:00Z",
    ]) {
      expect(parseDateBound(text, "from"), text).toBeNull();
    }
  });

  it("rejects instants before year 1 that an offset creates (PostgreSQL has no year 0)", () => {
    expect(parseDateBound("0001-01-01T00:00:00+00:01", "to")).toBeNull();
    expect(parseDateBound("0001-01-01T00:00:00+14:00", "from")).toBeNull();
    expect(iso("0001-01-01T00:00:00Z", "from")).toBe("0001-01-01T00:00:00.000Z");
    expect(iso("0001-01-01T00:00:00-01:00", "from")).toBe("0001-01-01T01:00:00.000Z");
  });

  it("rejects anything that is not one of the documented forms", () => {
    for (const text of [
      "",
      " ",
      "2026",
      "2026-01",
      "20260131",
      "2026-1-31",
      "2026-01-31T",
      "2026-01-31T10",
      "2026-01-31T10:15:30ZZ",
      "2026-01-31T10:15:30+2",
      "2026-01-31T10:15:30 +02:00",
      " 2026-01-31",
      "2026-01-31 ",
      "2026-01-31\n",
      "31/01/2026",
      "1706659200",
      "now",
      "+012026-01-31",
      "-2026-01-31",
      "２０２６-01-31",
      "2026-01-31T10:15:30.Z",
      "2026-01-31T10:15:30\u0000Z",
    ]) {
      expect(parseDateBound(text, "from"), JSON.stringify(text)).toBeNull();
      expect(parseDateBound(text, "to"), JSON.stringify(text)).toBeNull();
    }
  });
});
