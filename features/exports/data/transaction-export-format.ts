import type { ExportFormat, Transaction } from "@/features/transactions";
import { ExactNumber } from "@/platform/schemas/exact-number";

/**
 * A transaction record as `npm run db:import` reads it and writes it to the table (tools/data/table-rows.ts): the
 * player, then the API's fields in the API's order, without `updated_at` (the database stamps its own writes).
 */
export const TRANSACTION_RECORD_COLUMNS = [
  "player_id",
  "id",
  "date",
  "event_type",
  "event_name",
  "event_note",
  "amount",
  "currency",
  "payment_method",
  "created_by",
  "created_at",
  "completed_at",
  "status",
] as const;

/** The export's columns: the record, then `updated_at` as the list has it (an addition at the end, for CSV readers). */
export const EXPORT_COLUMNS = [...TRANSACTION_RECORD_COLUMNS, "updated_at"] as const;

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8; header=present",
  ndjson: "application/x-ndjson; charset=utf-8",
};

/**
 * A spreadsheet runs a cell that starts with = + - @ as a formula, also after leading blanks or line breaks
 * (and a tab, CR or NUL alone can start one: OWASP's CSV-injection list, ASVS 5 V1.2.10). Text from the database
 * must never do that on a back-office machine, so such text gets a leading apostrophe. Full-width signs count
 * too: some spreadsheets read them as their ASCII forms. Numbers and dates are written as they are.
 */
const FORMULA_START = /^[\t\r\n\0]|^\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * Where a spreadsheet may start a cell inside our text: a line break, or a separator of another locale (`;` where
 * the decimal mark is a comma, a tab when pasted, `|` in import dialogs). Quoting does not help there: such a
 * reader splits the line at our cells' commas too, so our quotes are no longer at the start of its cells.
 */
const INNER_BREAKS = new Set([";", "\t", "|", "\r", "\n"]);
const INNER_BREAK = /[;\t|\r\n]/;
const FORMULA_CHARS = new Set(["=", "+", "-", "@", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]);
/** What a reader skips before deciding that a cell is a formula: blanks, and a quote it takes for quoting. */
const SKIPPED = /[\s"]/;

/** `card;@SUM(A1)` → `card;'@SUM(A1)`: an apostrophe after each break that blanks and a formula sign follow. */
function neutraliseAfterBreaks(text: string): string {
  let out = "";
  let copied = 0;
  let afterBreak = -1; // just past the last break, while only skipped characters followed it
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (INNER_BREAKS.has(c)) afterBreak = i + 1;
    else if (afterBreak < 0) continue;
    else if (FORMULA_CHARS.has(c)) {
      out += `${text.slice(copied, afterBreak)}'`;
      copied = afterBreak;
      afterBreak = -1;
    } else if (!SKIPPED.test(c)) afterBreak = -1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Quoted: the separators of RFC 4180 and, for readers that honour quotes with them, `;`, tab and `|`. */
const NEEDS_QUOTES = /[",;\t|\r\n]/;

/** A text cell that a spreadsheet shows as text, never evaluates, whichever separator it splits lines at. */
export function neutraliseFormula(text: string): string {
  const inner = INNER_BREAK.test(text) ? neutraliseAfterBreaks(text) : text;
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
}

function csvCell(value: string | ExactNumber | null, text: boolean): string {
  if (value === null) return "";
  let s = value instanceof ExactNumber ? value.digits : value;
  if (text) s = neutraliseFormula(s);
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The columns a spreadsheet should see as numbers or dates; every other column is text. */
const NUMBER_AND_DATE_COLUMNS = new Set<string>([
  "date",
  "amount",
  "created_at",
  "completed_at",
  "updated_at",
]);

/** What the export starts with: the CSV header row (CRLF line ends, RFC 4180); nothing for NDJSON. */
export function exportPreamble(format: ExportFormat): string {
  return format === "csv" ? `${EXPORT_COLUMNS.join(",")}\r\n` : "";
}

type ExportValue = Transaction[keyof Transaction];

// Precomputed per column, since a 100,000-row export formats 1.2M cells (measured: the generic version with a
// spread record per row and stringifyJson took 2–3× the time).
const TRANSACTION_COLUMNS = EXPORT_COLUMNS.filter(
  (c): c is Exclude<(typeof EXPORT_COLUMNS)[number], "player_id"> => c !== "player_id",
);
const CSV_COLUMNS = TRANSACTION_COLUMNS.map((c) => ({
  key: c,
  text: !NUMBER_AND_DATE_COLUMNS.has(c),
}));
const JSON_KEYS = TRANSACTION_COLUMNS.map((c) => ({
  key: c,
  prefix: `,${JSON.stringify(c)}:`,
}));

/** A flat record's value as JSON: money as its exact digits, text escaped by JSON.stringify. */
const jsonValue = (value: ExportValue): string =>
  value === null ? "null" : value instanceof ExactNumber ? value.digits : JSON.stringify(value);

/** One batch of transactions as export lines. */
export function exportLines(format: ExportFormat, playerId: string, transactions: Transaction[]): string {
  let out = "";
  // player_id comes first (EXPORT_COLUMNS) and is the same on every line.
  if (format === "ndjson") {
    const player = `{"player_id":${JSON.stringify(playerId)}`;
    for (const t of transactions) {
      out += player;
      for (const { key, prefix } of JSON_KEYS) out += prefix + jsonValue(t[key]);
      out += "}\n";
    }
    return out;
  }
  const player = csvCell(playerId, true);
  for (const t of transactions) {
    out += player;
    for (const { key, text } of CSV_COLUMNS) out += `,${csvCell(t[key], text)}`;
    out += "\r\n";
  }
  return out;
}
