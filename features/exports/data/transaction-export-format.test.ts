import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Transaction, transactionExportLineSchema } from "@/features/transactions/schema/transaction";
import { ExactNumber } from "@/platform/schemas/exact-number";
import {
  EXPORT_COLUMNS,
  exportLines,
  exportPreamble,
  neutraliseFormula,
} from "./transaction-export-format.ts";

const base: Transaction = {
  id: "T1",
  date: "2026-01-02T03:04:05.678Z",
  event_type: "deposit",
  event_name: "Card Deposit",
  event_note: null,
  amount: new ExactNumber("12345678901.12345678"),
  currency: "EUR",
  payment_method: "Visa",
  created_by: "System",
  created_at: "2026-01-02T03:04:05.678Z",
  completed_at: null,
  status: "pending",
  updated_at: "2026-01-03T00:00:00.001Z",
};

describe("CSV export", () => {
  it("starts with a header row naming the columns", () => {
    expect(exportPreamble("csv")).toBe(`${EXPORT_COLUMNS.join(",")}\r\n`);
    expect(exportPreamble("ndjson")).toBe("");
  });

  it("writes exact money, UTC times and empty fields for null, one CRLF-terminated row per transaction", () => {
    expect(
      exportLines("csv", "P1", [base, { ...base, id: "T2", amount: new ExactNumber("-0.00000001") }]),
    ).toBe(
      "P1,T1,2026-01-02T03:04:05.678Z,deposit,Card Deposit,,12345678901.12345678,EUR,Visa,System,2026-01-02T03:04:05.678Z,,pending,2026-01-03T00:00:00.001Z\r\n" +
        "P1,T2,2026-01-02T03:04:05.678Z,deposit,Card Deposit,,-0.00000001,EUR,Visa,System,2026-01-02T03:04:05.678Z,,pending,2026-01-03T00:00:00.001Z\r\n",
    );
  });

  it("quotes fields with commas, quotes or line breaks (RFC 4180)", () => {
    const line = exportLines("csv", "P1", [{ ...base, event_note: 'He said "hi",\nthen left' }]);
    expect(line).toContain(',"He said ""hi"",\nthen left",');
  });

  it("never lets a text field start a spreadsheet formula, but leaves negative amounts alone", () => {
    const line = exportLines("csv", "P1", [
      {
        ...base,
        event_name: '=HYPERLINK("http://x")',
        event_note: "+1",
        payment_method: "@SUM(A1)",
        amount: new ExactNumber("-5"),
      },
    ]);
    const cells = line.trimEnd().split(",");
    expect(line).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(cells).toContain("'+1");
    expect(cells).toContain("'@SUM(A1)");
    expect(cells).toContain("-5");
  });

  it("ends each row with the transaction's status after completed_at, then updated_at (the last column)", () => {
    const done = { ...base, completed_at: "2026-01-02T03:04:05.678Z", status: "completed" as const };
    const failed = { ...base, completed_at: null, status: "failed" as const };
    const lines = exportLines("csv", "P1", [done, failed]).split("\r\n");
    expect(EXPORT_COLUMNS.slice(-3)).toEqual(["completed_at", "status", "updated_at"]);
    expect(lines[0]?.split(",").slice(-2)).toEqual(["completed", "2026-01-03T00:00:00.001Z"]);
    expect(lines[1]?.split(",").slice(-3)).toEqual(["", "failed", "2026-01-03T00:00:00.001Z"]);
  });
});

/**
 * The cells a spreadsheet makes of `text` when it splits at `sep`: a quote is special only at the start of a
 * cell (then `""` is a quote, and what follows the closing quote is appended, as Excel does); a line break outside
 * quotes ends the cell as a separator does.
 */
function spreadsheetCells(text: string, sep: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = "";
    if (text[i] === '"') {
      for (i++; i < text.length; i++) {
        if (text[i] !== '"') cell += text[i];
        else if (text[i + 1] === '"') cell += text[i++];
        else break;
      }
      i++;
    }
    for (; i < text.length && text[i] !== sep && text[i] !== "\r" && text[i] !== "\n"; i++) cell += text[i];
    cells.push(cell);
    i++;
  }
  return cells;
}

describe("CSV export: spreadsheet formulas (OWASP CSV injection)", () => {
  it.each([
    ["=1+1"],
    ["+1"],
    ["-1"],
    ["@SUM(A1)"],
    [" =1+1"],
    ["  +1"],
    ["\u00a0-1"],
    ["\uFF1D1+1"],
    ["\uFF0B1"],
    ["\uFF0D1"],
    ["\uFF20SUM(A1)"],
    [" \uFF0B1"],
    ["\t"],
    ["\rtext"],
    ["\ntext"],
    ["\0text"],
  ])("neutralises %j with a leading apostrophe", (text) => {
    expect(neutraliseFormula(text)).toBe(`'${text}`);
  });

  it.each([
    ["\t=1+1", "'\t'=1+1"],
    ["\r=1+1", "'\r'=1+1"],
    ["\n=1+1", "'\n'=1+1"],
    ["\r\n@SUM(A1)", "'\r\n'@SUM(A1)"],
  ])("neutralises %j at the start and after the line break", (text, expected) => {
    expect(neutraliseFormula(text)).toBe(expected);
  });

  it.each([
    ["card;@SUM(A1)", "card;'@SUM(A1)"],
    ["card; =1+1", "card;' =1+1"],
    ['card;"=1+1', "card;'\"=1+1"],
    ["a\t+1", "a\t'+1"],
    ["a|-1", "a|'-1"],
    ["note\n=HYPERLINK(1)", "note\n'=HYPERLINK(1)"],
    ["x\r\n@A1", "x\r\n'@A1"],
    ["=1;=2", "'=1;'=2"],
    ["a;b;=c", "a;b;'=c"],
    ["a;\uFF1D1", "a;'\uFF1D1"],
    ["a;\uFF0B1", "a;'\uFF0B1"],
    ["a|\uFF0D1", "a|'\uFF0D1"],
    ["a\t\uFF20A1", "a\t'\uFF20A1"],
  ])("neutralises %j after a separator of another locale or a line break", (text, expected) => {
    expect(neutraliseFormula(text)).toBe(expected);
  });

  it.each([
    ["EUR"],
    ["Card Deposit"],
    [" plain"],
    ["a=b"],
    ["1-2"],
    [""],
    ["a;b"],
    ["a; b=c"],
    ["Deposit, -5 EUR"],
  ])("leaves %j as it is", (text) => {
    expect(neutraliseFormula(text)).toBe(text);
  });

  it("quotes a cell holding `;`, a tab or `|`, besides RFC 4180's comma, quote and line breaks", () => {
    const cells = (note: string) => exportLines("csv", "P1", [{ ...base, event_note: note }]);
    expect(cells("card;@SUM(A1)")).toContain(`,"card;'@SUM(A1)",`);
    expect(cells("a;b")).toContain(',"a;b",');
    expect(cells("a\tb")).toContain(',"a\tb",');
    expect(cells("a|b")).toContain(',"a|b",');
  });

  it("no cell a spreadsheet reads starts a formula, whether it splits lines at `,`, `;`, tab or `|` (property)", () => {
    const hostile = fc.string({
      // Every sign a spreadsheet starts a formula with, the full-width forms included.
      unit: fc.constantFrom(..."=+-@;,\t|\r\n \"'a1\u00a0\uFF1D\uFF0B\uFF0D\uFF20"),
      maxLength: 24,
    });
    fc.assert(
      fc.property(
        hostile,
        hostile,
        hostile,
        fc.constantFrom(",", ";", "\t", "|"),
        (name, note, method, sep) => {
          const csv = exportLines("csv", name, [
            { ...base, event_name: name, event_note: note, payment_method: method },
          ]);
          for (const cell of spreadsheetCells(csv, sep)) {
            expect(cell, JSON.stringify({ csv, sep })).not.toMatch(/^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("neutralises every text column, currency and event type included", () => {
    const formula = " =HYPERLINK(1)";
    const hostile: Transaction = {
      ...base,
      id: formula,
      event_type: formula as Transaction["event_type"],
      event_name: formula,
      event_note: formula,
      currency: formula,
      payment_method: formula,
      created_by: formula,
    };
    const cells = exportLines("csv", formula, [hostile]).trimEnd().split(",");
    // status is one of four words the API writes itself: no formula can reach it.
    const textColumns = EXPORT_COLUMNS.filter(
      (c) => !["date", "amount", "created_at", "completed_at", "status", "updated_at"].includes(c),
    );
    for (const column of textColumns)
      expect(cells[EXPORT_COLUMNS.indexOf(column)], column).toBe(`'${formula}`);
  });

  it("writes numbers and dates as they are, negative amounts included", () => {
    const cells = exportLines("csv", "P1", [
      { ...base, amount: new ExactNumber("-5.25"), completed_at: "2026-01-02T03:04:05.678Z" },
    ])
      .trimEnd()
      .split(",");
    expect(cells[EXPORT_COLUMNS.indexOf("amount")]).toBe("-5.25");
    expect(cells[EXPORT_COLUMNS.indexOf("date")]).toBe("2026-01-02T03:04:05.678Z");
    expect(cells[EXPORT_COLUMNS.indexOf("created_at")]).toBe("2026-01-02T03:04:05.678Z");
    expect(cells[EXPORT_COLUMNS.indexOf("completed_at")]).toBe("2026-01-02T03:04:05.678Z");
    expect(cells[EXPORT_COLUMNS.indexOf("updated_at")]).toBe("2026-01-03T00:00:00.001Z");
  });
});

describe("NDJSON export", () => {
  it("writes one JSON record with player_id per line, money as exact JSON numbers", () => {
    const text = exportLines("ndjson", "P1", [base, { ...base, id: "T2" }]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(lines[0]).toContain('"amount":12345678901.12345678');
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      player_id: "P1",
      id: "T1",
      event_type: "deposit",
      event_note: null,
    });
  });

  it("a line is the list's transaction with player_id first, updated_at included, keys in the schema's order", () => {
    const line = exportLines("ndjson", "P1", [base]).trimEnd();
    expect(Object.keys(JSON.parse(line))).toEqual(Object.keys(transactionExportLineSchema.shape));
    expect(JSON.parse(line)).toMatchObject({ player_id: "P1", updated_at: "2026-01-03T00:00:00.001Z" });
  });
});
