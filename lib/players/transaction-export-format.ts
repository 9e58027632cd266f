import { ExactNumber } from "@/lib/http/exact-number";
import { stringifyJson } from "@/lib/http/json";
import type { ExportFormat, Transaction } from "@/lib/schemas/transaction";

/** The export's columns: the player, then a transaction's fields in the API's order. */
export const EXPORT_COLUMNS = [
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
] as const;

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8; header=present",
  ndjson: "application/x-ndjson; charset=utf-8",
};

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab/CR before one) as a formula; text from the
 * database must never do that on a back-office machine, so such text gets a leading apostrophe (OWASP's
 * advice). Numbers and dates are written as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: string | ExactNumber | null, text: boolean): string {
  if (value === null) return "";
  let s = value instanceof ExactNumber ? value.digits : value;
  if (text && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const TEXT_COLUMNS = new Set<string>([
  "player_id",
  "id",
  "event_name",
  "event_note",
  "payment_method",
  "created_by",
]);

/** What the export starts with: the CSV header row (CRLF line ends, RFC 4180); nothing for NDJSON. */
export function exportPreamble(format: ExportFormat): string {
  return format === "csv" ? `${EXPORT_COLUMNS.join(",")}\r\n` : "";
}

/** One batch of transactions as export lines. */
export function exportLines(format: ExportFormat, playerId: string, transactions: Transaction[]): string {
  let out = "";
  for (const t of transactions) {
    const record = { player_id: playerId, ...t };
    if (format === "ndjson") {
      out += `${stringifyJson(record)}\n`;
    } else {
      out += `${EXPORT_COLUMNS.map((c) => csvCell(record[c], TEXT_COLUMNS.has(c))).join(",")}\r\n`;
    }
  }
  return out;
}

/** A file name that is safe in Content-Disposition whatever the player id holds. */
export function exportFileName(playerId: string, format: ExportFormat): string {
  return `${playerId.replace(/[^A-Za-z0-9._-]/g, "_")}-transactions.${format}`;
}
