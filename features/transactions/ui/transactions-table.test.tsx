import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TransactionData } from "@/features/transactions/client/queries";
import type { SortValue } from "@/features/transactions/client/transaction-url-state";
import { useTransactionsTable } from "@/features/transactions/client/use-transactions-table";
import { transactionColumns } from "./transaction-columns.tsx";
import { TransactionsTableView } from "./transactions-table.tsx";

const row: TransactionData = {
  id: "t1",
  date: "2026-11-01T10:00:00.000Z",
  event_type: "deposit",
  event_name: "Card Deposit",
  event_note: "a note long enough to wrap",
  amount: "123456789012.12345678",
  currency: "EUR",
  payment_method: "Visa",
  created_by: "System",
  created_at: "2026-11-01T10:00:00.000Z",
  completed_at: null,
  status: "pending",
  updated_at: "2026-11-01T10:00:00.000Z",
};

/** The hook and the view together, as the panel uses them. */
function TableHarness({
  rows,
  loading,
  sort = "date_desc",
  foundId = null,
}: {
  rows: TransactionData[];
  loading: boolean;
  sort?: SortValue;
  foundId?: string | null;
}) {
  const table = useTransactionsTable({
    rows,
    total: rows.length,
    pagination: { pageIndex: 0, pageSize: 20 },
    onPaginationChange: () => {},
    tz: "utc",
    columnsFor: transactionColumns,
  });
  return (
    <TransactionsTableView
      table={table}
      caption="Transactions"
      captionId="c"
      loading={loading}
      refreshing={false}
      skeletonRows={2}
      tz="utc"
      sort={sort}
      onSort={() => {}}
      foundId={foundId}
    />
  );
}

/** Rendered as the server renders it (no DOM needed). */
const render = (props: {
  rows: TransactionData[];
  loading: boolean;
  sort?: SortValue;
  foundId?: string | null;
}) => renderToStaticMarkup(<TableHarness {...props} />);

/** The class attribute of the desktop table's cell for a column. */
function cellClassOf(html: string, column: string): string {
  return new RegExp(`<td data-column="${column}" class="([^"]*)"`).exec(html)?.[1] ?? "";
}

const keyOf = (column: object) =>
  "id" in column && column.id
    ? String(column.id)
    : "accessorKey" in column
      ? String(column.accessorKey)
      : "?";

describe("transaction columns", () => {
  it("every column declares its alignment and wrapping in meta", () => {
    const columns = transactionColumns("utc");
    expect(columns).toHaveLength(9);
    for (const column of columns) {
      expect(column.meta, keyOf(column)).toMatchObject({
        align: expect.stringMatching(/^(start|end)$/),
        wrap: expect.any(Boolean),
      });
    }
    expect(columns.filter((c) => c.meta?.sort).map(keyOf)).toEqual(["date", "amount"]);
    const byMeta = (test: (meta: { align: string; wrap: boolean }) => boolean) =>
      columns.filter((c) => c.meta && test(c.meta)).map(keyOf);
    expect(byMeta((m) => m.align === "end")).toEqual(["amount", "details"]);
    expect(byMeta((m) => m.wrap)).toEqual(["event_name", "event_note", "payment_method"]);
  });

  it("the table lays cells out from that meta", () => {
    const html = render({ rows: [row], loading: false });
    expect(cellClassOf(html, "amount")).toMatch(/\btext-right\b/);
    expect(cellClassOf(html, "amount")).toMatch(/\bwhitespace-nowrap\b/);
    expect(cellClassOf(html, "date")).not.toMatch(/\btext-right\b/);
    expect(cellClassOf(html, "event_note")).not.toMatch(/\bwhitespace-nowrap\b/);
    expect(html).toMatch(
      /<th scope="col" aria-sort="none" class="[^"]*\btext-right\b[^"]*"><button[^>]*>Amount/,
    );
    // Exact decimals reach the screen: every digit of the amount, formatted.
    expect(html).toContain("123,456,789,012.12345678");
  });

  it("the date is shown once per row; created and completed wait behind a details button", () => {
    const html = render({ rows: [row], loading: false });
    const table = html.slice(html.indexOf("<table"));
    expect(table.match(/<time /g)?.length).toBe(1);
    expect(table).toContain('aria-expanded="false"');
    expect(table).toContain('aria-label="Details of transaction t1"');
    expect(table).not.toContain("transaction-details");
  });

  it("the sorted column says so with aria-sort; the other sortable one reads none", () => {
    const amountAsc = render({ rows: [row], loading: false, sort: "amount_asc" });
    expect(amountAsc).toMatch(/<th scope="col" aria-sort="ascending"[^>]*><button[^>]*>Amount/);
    expect(amountAsc).toMatch(/<th scope="col" aria-sort="none"[^>]*><button[^>]*>Date/);
    const dateDesc = render({ rows: [row], loading: false });
    expect(dateDesc).toMatch(/<th scope="col" aria-sort="descending"[^>]*><button[^>]*>Date/);
  });

  it("placeholder rows have one cell per column", () => {
    const html = render({ rows: [], loading: true });
    const table = html.slice(html.indexOf("<table"));
    const headings = table.match(/<th /g)?.length;
    const firstRow = /<tbody[^>]*><tr[^>]*>(.*?)<\/tr>/.exec(table)?.[1] ?? "";
    expect(headings).toBe(9);
    expect(firstRow.match(/<td /g)?.length).toBe(headings);
  });

  it("the transaction found by id is marked in words and with aria-current, in the table and the cards", () => {
    const other = { ...row, id: "t2" };
    const html = render({ rows: [other, row], loading: false, foundId: "t1" });
    const marked = [...html.matchAll(/<(tr|li)\b[^>]*aria-current="true"[^>]*>/g)].map((m) => m[0]);
    expect(marked).toHaveLength(2);
    for (const tag of marked) expect(tag).toContain('data-transaction-id="t1"');
    expect(html.match(/Found by id/g)?.length).toBe(2);
    expect(html).toContain("transaction t1");
    expect(html).not.toMatch(/data-transaction-id="t2"[^>]*aria-current/);
  });

  it("without a found id no row is marked", () => {
    const html = render({ rows: [row], loading: false });
    expect(html).not.toContain("aria-current");
    expect(html).not.toContain("Found by id");
  });

  it("a failed or cancelled row's amount is muted and struck through, said in words; others keep their colour", () => {
    const rows: TransactionData[] = [
      { ...row, id: "ok", amount: "100", status: "completed", completed_at: row.date },
      { ...row, id: "wait", amount: "70", status: "pending" },
      { ...row, id: "bad", amount: "200", status: "failed" },
      { ...row, id: "off", amount: "30", status: "cancelled" },
    ];
    const html = render({ rows, loading: false });
    // Each amount twice (table and cards): [data-moved, class, text].
    const amounts = [
      ...html.matchAll(/<span data-moved="(\w+)" class="([^"]*)">([^<]*)(<span class="sr-only">([^<]*))?/g),
    ];
    expect(amounts).toHaveLength(8);
    const of = (text: string) => amounts.filter((m) => m[3] === text);
    for (const [text, moved, sr] of [
      ["+€200.00", "never", " (failed: no money moved)"],
      ["+€30.00", "never", " (cancelled: no money moved)"],
    ] as const) {
      expect(of(text), text).toHaveLength(2);
      for (const m of of(text)) {
        expect(m[1]).toBe(moved);
        expect(m[2]).toMatch(/\btext-slate-500\b/);
        expect(m[2]).toMatch(/\bline-through\b/);
        expect(m[2]).not.toMatch(/emerald/);
        expect(m[5]).toBe(sr);
      }
    }
    for (const [text, moved] of [
      ["+€100.00", "moved"],
      ["+€70.00", "not_yet"],
    ] as const) {
      for (const m of of(text)) {
        expect(m[1]).toBe(moved);
        expect(m[2]).toMatch(/\btext-emerald-700\b/);
        expect(m[2]).not.toMatch(/line-through/);
        expect(m[5]).toBeUndefined();
      }
    }
    // The status badge says the word: in the table's status column, the card's status and its "Completed" line.
    expect(html.match(/>Failed</g)?.length).toBe(3);
    expect(html.match(/>Cancelled</g)?.length).toBe(3);
  });
});
