import type { ExportFormat, TransactionFilters, TransactionSort } from "@/features/transactions";
import type { DateBound } from "@/platform/schemas/date-bound";

const DAY = 86_400_000;
/** Longest name written: file systems allow 255 bytes; a long list of event names is summarised instead. */
const MAX_LENGTH = 180;

/** Letters, digits, `.`, `_` and `-` only: safe in a header, a shell and every file system. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-+|-+$/g, "") || "x";

/** A UTC midnight as its day; any other instant as a compact UTC date-time (no colons). */
function instantText(ms: number): string {
  const iso = new Date(ms).toISOString();
  if (ms % DAY === 0) return iso.slice(0, 10);
  return iso.replaceAll(":", "").replace(/\.000Z$/, "Z");
}

/** An inclusive end as the day it closes when it closes one (`< 2026-02-01` or `≤ 2026-01-31T23:59:59.999`). */
function endText(bound: DateBound): string {
  const end = bound.at.getTime() + (bound.exclusive ? 0 : 1);
  return end % DAY === 0 ? instantText(end - DAY) : instantText(bound.at.getTime());
}

function filterParts(f: TransactionFilters, sort: TransactionSort | undefined): string[] {
  const parts: string[] = [];
  if (f.event_type) parts.push(f.event_type.join("-"));
  if (f.event_name)
    parts.push(f.event_name.length > 3 ? `${f.event_name.length}-names` : f.event_name.map(safe).join("-"));
  if (f.created_by) parts.push(`by-${safe(f.created_by)}`);
  if (f.status) parts.push(f.status);
  if (f.transaction_id) parts.push(`id-${safe(f.transaction_id)}`);
  if (f.from_date && f.to_date) parts.push(instantText(f.from_date.at.getTime()), endText(f.to_date));
  else if (f.from_date) parts.push(`from-${instantText(f.from_date.at.getTime())}`);
  else if (f.to_date) parts.push(`to-${endText(f.to_date)}`);
  if (sort && sort !== "date_desc") parts.push(sort.replace("_", "-"));
  return parts;
}

export interface ExportFileNameOptions {
  playerId: string;
  format: ExportFormat;
  filters: TransactionFilters;
  sort?: TransactionSort | undefined;
}

/**
 * The export's file name states the player and the filters, so a folder of exports reads at a glance:
 * `P000007_transactions_deposit_2026-01-01_2026-01-31.csv` (a whole-day range as its first and last day, UTC).
 * Only safe characters, whatever the player id or an event name holds.
 */
export function exportFileName(options: ExportFileNameOptions): string {
  const { playerId, format, filters, sort } = options;
  const stem = [safe(playerId).replaceAll("-", "_"), "transactions", ...filterParts(filters, sort)].join("_");
  return `${stem.slice(0, MAX_LENGTH - format.length - 1)}.${format}`;
}

/**
 * `attachment` with the name twice: `filename` for every client, `filename*` (RFC 6266, RFC 8187) for those that
 * read it first. The name is ASCII-safe already, so both carry the same text.
 */
export function attachmentDisposition(fileName: string): string {
  return `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
