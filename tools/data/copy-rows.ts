import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ClientBase } from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { asBuffer } from "./as-buffer.ts";

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
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<number> {
  const stream = client.query(copyFrom(sql));
  await pipeline(Readable.from(chunks, { objectMode: false }), stream);
  return stream.rowCount;
}

/** One COPY text line back to its values (for the INSERT fallback). */
export function parseCopyLine(line: string): (string | null)[] {
  return line.split("\t").map((value) => {
    if (value === "\\N") return null;
    if (!value.includes("\\")) return value;
    return value.replace(/\\(.)/g, (_, c: string) =>
      c === "t" ? "\t" : c === "n" ? "\n" : c === "r" ? "\r" : c,
    );
  });
}

/**
 * COPY text chunks into `table`: by COPY FROM STDIN, or, where the connection cannot COPY (the embedded
 * database behind pglite-socket), by INSERTs of a few thousand rows each that let the server cast the
 * text values to the column types (json_populate_recordset), slower but the same result.
 */
export async function loadChunks(
  client: ClientBase,
  target: { table: string; columns: readonly string[]; copy: boolean; freeze?: boolean },
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const columns = target.columns.join(", ");
  if (target.copy) {
    await copyIn(
      client,
      `COPY ${target.table} (${columns}) FROM STDIN${target.freeze ? " WITH (FREEZE)" : ""}`,
      chunks,
    );
    return;
  }
  const BATCH = 2_000;
  let batch: Record<string, string | null>[] = [];
  const flush = async () => {
    if (!batch.length) return;
    await client.query(
      `INSERT INTO ${target.table} (${columns}) SELECT ${columns} FROM json_populate_recordset(NULL::${target.table}, $1::json)`,
      [JSON.stringify(batch)],
    );
    batch = [];
  };
  for await (const chunk of chunks) {
    const text = typeof chunk === "string" ? chunk : asBuffer(chunk).toString("utf8");
    for (const line of text.split("\n")) {
      if (!line) continue;
      const values = parseCopyLine(line);
      const row: Record<string, string | null> = {};
      target.columns.forEach((c, i) => {
        row[c] = values[i] ?? null;
      });
      batch.push(row);
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
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
