import { describe, expect, it } from "vitest";
import { baselineExportSql, baselineListSql, parseBaselineQuery } from "./baseline-sql.ts";

describe("baseline SQL", () => {
  it("is LIMIT/OFFSET plus count(*) over the same WHERE", () => {
    const q = parseBaselineQuery(
      new URLSearchParams(
        "event_type=bet,win&event_name=Casino%20Bet&created_by=Admin&from_date=2026-01-01T00:00:00Z&to_date=2026-01-31&limit=20&offset=100000",
      ),
    );
    const sql = baselineListSql("P1", q);
    const where =
      "player_id = $1 AND event_type = ANY($2::event_type[]) AND event_name = ANY($3::text[]) AND created_by = $4 AND date >= $5::timestamptz AND date < ($6::date + 1)::timestamp AT TIME ZONE 'UTC'";
    expect(sql.count).toEqual({
      text: `SELECT count(*)::int AS total FROM transactions WHERE ${where}`,
      values: ["P1", ["bet", "win"], ["Casino Bet"], "Admin", "2026-01-01T00:00:00Z", "2026-01-31"],
    });
    expect(sql.rows.text).toMatch(
      new RegExp(
        `WHERE ${where.replace(/[$()[\]:+]/g, "\\$&")} ORDER BY date DESC, id DESC LIMIT \\$7 OFFSET \\$8$`,
      ),
    );
    expect(sql.rows.values.slice(-2)).toEqual([20, 100000]);
  });

  it("defaults the page and uses <= for a to_date with a time", () => {
    const q = parseBaselineQuery(new URLSearchParams("to_date=2026-01-31T12:00:00Z"));
    expect(q).toMatchObject({ limit: 20, offset: 0, eventTypes: [], eventNames: [] });
    expect(baselineExportSql("P1", q)).toEqual({
      text: "SELECT id, date, event_type, event_name, event_note, amount, currency, payment_method, created_by, created_at, completed_at, status FROM transactions WHERE player_id = $1 AND date <= $2::timestamptz ORDER BY date DESC, id DESC",
      values: ["P1", "2026-01-31T12:00:00Z"],
    });
  });

  it("refuses a malformed page parameter", () => {
    expect(() => parseBaselineQuery(new URLSearchParams("offset=-1"))).toThrow(/whole number/);
  });
});
