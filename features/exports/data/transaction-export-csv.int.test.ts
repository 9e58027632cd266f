import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "@/platform/db/refresh-player-aggregates";
import { freshTestDatabase } from "@/test/support/fresh-test-database";
import { createRouteKit, type RouteKit } from "@/test/support/route-test-kit";
import { EXPORT_COLUMNS } from "./transaction-export-format.ts";

/*
 * The CSV export through its route handler, on a database of its own holding text a spreadsheet would run as a
 * formula (OWASP CSV injection) in every text column, currency included.
 */
const PLAYER = "PCSV0001";
const HOSTILE: Record<string, string> = {
  id: "-T1",
  event_name: " =HYPERLINK(1)",
  event_note: "\n=1+1",
  currency: "\t+1",
  payment_method: "@SUM(A1)",
  created_by: "card;@SUM(A1)",
};
/** Each cell as written: an apostrophe before every place a spreadsheet could start a formula. */
const NEUTRALISED: Record<string, string> = {
  id: "'-T1",
  event_name: "' =HYPERLINK(1)",
  event_note: "'\n'=1+1",
  currency: "'\t'+1",
  payment_method: "'@SUM(A1)",
  created_by: "card;'@SUM(A1)",
};

let database: { url: string; stop(): Promise<void> };
let kit: RouteKit;

beforeAll(async () => {
  database = await freshTestDatabase(inject("databaseKind"), "csv_injection");
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    await pool.query(
      `INSERT INTO players (id, name, currency, registration_date, kyc_status, blocked, segments)
       VALUES ($1, 'CSV Player', 'EUR', '2025-01-01T00:00:00Z', 'approved', false, '{}')`,
      [PLAYER],
    );
    await pool.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, event_note, amount, currency,
         payment_method, created_by, created_at, completed_at)
       VALUES ($1, $2, '2025-03-01T10:00:00Z', 'adjustment', $3, $4, -12.5, $5, $6, $7,
         '2025-03-01T10:00:00Z', '2025-03-01T10:00:01Z')`,
      [
        HOSTILE.id,
        PLAYER,
        HOSTILE.event_name,
        HOSTILE.event_note,
        HOSTILE.currency,
        HOSTILE.payment_method,
        HOSTILE.created_by,
      ],
    );
    await pool.query(REFRESH_PLAYER_AGGREGATES_SQL, [[PLAYER]]);
  } finally {
    await pool.end();
  }
  kit = await createRouteKit(database.url);
});
afterAll(async () => {
  await database?.stop();
});

/** RFC 4180 rows, each ended by CRLF (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  const cell = /("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n)/y;
  while (cell.lastIndex < text.length) {
    const match = cell.exec(text);
    if (!match) throw new Error(`not CSV at offset ${cell.lastIndex}`);
    const raw = match[1] ?? "";
    row.push(raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw);
    if (match[2] === "\r\n") {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

describe("CSV export over the route handler: safe to open in a spreadsheet", () => {
  it("every place a spreadsheet could start a formula in a text cell carries an apostrophe; numbers and dates stay as they are", async () => {
    const res = await kit.call("GET", `/api/v1/players/${PLAYER}/transactions/export?format=csv`);
    expect(res.status).toBe(200);
    const [header, row, ...rest] = parseCsv(res.text);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(rest).toEqual([]);
    const cell = (column: (typeof EXPORT_COLUMNS)[number]) => row?.[EXPORT_COLUMNS.indexOf(column)];
    for (const [column, text] of Object.entries(NEUTRALISED)) {
      expect(cell(column as (typeof EXPORT_COLUMNS)[number]), column).toBe(text);
    }
    // A `;` locale splits at the `;` (our quotes are not at the start of its cell): the rest is text too.
    expect(res.text).toContain(`,"card;'@SUM(A1)",`);
    expect(cell("amount")).toBe("-12.5");
    expect(cell("date")).toBe("2025-03-01T10:00:00.000Z");
    expect(cell("completed_at")).toBe("2025-03-01T10:00:01.000Z");
    expect(cell("status")).toBe("completed");
    // updated_at, the last column, is the database's own stamp: an instant, as written for the list.
    expect(row?.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
