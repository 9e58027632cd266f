import { asBuffer } from "./as-buffer.ts";
import {
  importPlayerRow,
  importTransactionRow,
  type LineResult,
  parsePlayerLine,
  parseTransactionLine,
} from "./parse-import-line.ts";

/*
 * One batch of NDJSON lines → their COPY rows (each starting with its line number) and the bad lines with
 * their reasons, in line order. The same function runs in the parse workers and, without them, inline.
 */

export type ImportKind = "players" | "transactions";

export interface LineBatch {
  /** Line number of the first line of `bytes`. */
  firstLine: number;
  /** Whole lines of the file as UTF-8, line ends included (the last line of a file may lack one). */
  bytes: Uint8Array;
}

export interface BatchResult {
  /** COPY text of the good lines as UTF-8, empty when none. */
  copy: Uint8Array;
  /** Non-blank lines. */
  lines: number;
  /** Bad lines in line order, as [line number, reason] pairs flattened. */
  bad: (number | string)[];
}

/** Line ends as readline knows them; files without "\r" (nearly all) take the plain "\n" path. */
const LINE_END = /\r\n|\n|\r/;

/** The lines of a batch's text, numbered as readline numbers them. */
export function batchLines(text: string): string[] {
  return text.includes("\r") ? text.split(LINE_END) : text.split("\n");
}

/** One line → its COPY columns, or the reason it is refused. */
function parseRow(kind: ImportKind, line: string): LineResult<string[]> {
  if (kind === "transactions") {
    const result = parseTransactionLine(line);
    return result.ok ? { ok: true, value: importTransactionRow(result.value) } : result;
  }
  const result = parsePlayerLine(line);
  return result.ok ? { ok: true, value: importPlayerRow(result.value) } : result;
}

export function parseBatch(kind: ImportKind, batch: LineBatch): BatchResult {
  const text = asBuffer(batch.bytes).toString("utf8");
  let copy = "";
  let lines = 0;
  const bad: (number | string)[] = [];
  let lineNo = batch.firstLine;
  for (const line of batchLines(text)) {
    if (line.trim() !== "") {
      // blank lines (and the "" after a batch's last line end) are not records
      lines++;
      const result = parseRow(kind, line);
      if (result.ok) copy += `${lineNo}\t${result.value.join("\t")}\n`;
      else bad.push(lineNo, result.reason);
    }
    lineNo++;
  }
  return { copy: Buffer.from(copy, "utf8"), lines, bad };
}
