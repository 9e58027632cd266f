import { describe, expect, it } from "vitest";
import { ExactNumber } from "@/lib/http/exact-number";
import type { Transaction } from "@/lib/schemas/transaction";
import { EXPORT_COLUMNS, exportFileName, exportLines, exportPreamble } from "./transaction-export-format.ts";

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
      "P1,T1,2026-01-02T03:04:05.678Z,deposit,Card Deposit,,12345678901.12345678,EUR,Visa,System,2026-01-02T03:04:05.678Z,\r\n" +
        "P1,T2,2026-01-02T03:04:05.678Z,deposit,Card Deposit,,-0.00000001,EUR,Visa,System,2026-01-02T03:04:05.678Z,\r\n",
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
});

describe("export file name", () => {
  it("keeps only safe characters", () => {
    expect(exportFileName("P000007", "csv")).toBe("P000007-transactions.csv");
    expect(exportFileName('a"b/c\\d é', "ndjson")).toBe("a_b_c_d__-transactions.ndjson");
  });
});
