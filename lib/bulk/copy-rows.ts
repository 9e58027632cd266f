import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ClientBase } from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";

/*
 * PostgreSQL COPY in text format: one row per line, columns separated by tabs, NULL as \N, and
 * backslash, tab, newline and carriage return escaped. Rows are batched into large chunks, because
 * per-row stream writes would cost more than the database's own parsing.
 */

const SPECIAL = /[\\\t\n\r]/;

/** One column value in COPY text format. */
export function copyValue(value: string | null): string {
  if (value === null) return "\\N";
  if (!SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
  );
}

/** A text[] value: every element double-quoted, so commas, braces and spaces need no further thought. */
export function copyTextArray(values: readonly string[]): string {
  return copyValue(`{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`);
}

export const copyBool = (b: boolean) => (b ? "t" : "f");

/** Collects COPY lines and hands them out in chunks of about `chunkSize` characters. */
export class CopyChunks {
  private parts: string[] = [];
  private size = 0;
  private ready: string[] = [];
  rows = 0;

  constructor(private readonly chunkSize = 1 << 20) {}

  /** `columns` already in COPY form (see copyValue). */
  push(columns: readonly string[]): void {
    const line = `${columns.join("\t")}\n`;
    this.parts.push(line);
    this.size += line.length;
    this.rows++;
    if (this.size >= this.chunkSize) this.cut();
  }

  private cut(): void {
    if (this.parts.length) this.ready.push(this.parts.join(""));
    this.parts = [];
    this.size = 0;
  }

  /** Full chunks so far; with `all`, also the partial one. */
  take(all = false): string[] {
    if (all) this.cut();
    const out = this.ready;
    this.ready = [];
    return out;
  }
}

/** Streams `chunks` into `COPY … FROM STDIN`; resolves with the number of rows copied. */
export async function copyIn(
  client: ClientBase,
  sql: string,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<number> {
  const stream = client.query(copyFrom(sql));
  await pipeline(Readable.from(chunks, { objectMode: false }), stream);
  return stream.rowCount;
}

/** Streams `COPY … TO STDOUT` line by line (text format, lines without their newline) into `onLine`. */
export async function copyOut(
  client: ClientBase,
  sql: string,
  onLine: (line: string) => void | Promise<void>,
): Promise<void> {
  let rest = "";
  const sink = new Writable({
    decodeStrings: false,
    async write(chunk: Buffer | string, _encoding, done) {
      try {
        const lines = (rest + chunk.toString()).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) await onLine(line);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  await pipeline(client.query(copyTo(sql)), sink);
  if (rest) await onLine(rest);
}
