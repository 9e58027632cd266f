import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { txLine } from "../../test/support/test-import-lines.ts";
import { type BatchResult, parseBatch } from "./parse-batch.ts";
import { realCalendar } from "./parse-import-line.ts";
import { ParsePool } from "./parse-pool.ts";
import { TRANSACTION_COPY_COLUMNS } from "./table-rows.ts";

const tx = (id: string, amount = "12.5") => txLine({ id }, amount);
/** A staged row is the line number, then the table's columns. */
const ID_CELL = 1 + TRANSACTION_COPY_COLUMNS.indexOf("id");

describe("parseBatch", () => {
  it("numbers lines from the batch's first line, skips blank ones, and lists bad lines in order", () => {
    const text = [tx("T1"), "", "{not json", tx("T2", "1e3"), "   ", tx("T3")].join("\n");
    const result = parseBatch("transactions", { firstLine: 41, bytes: Buffer.from(text) });
    expect(result.lines).toBe(4);
    expect(
      Buffer.from(result.copy)
        .toString()
        .split("\n")
        .map((row) => row.split("\t"))
        .map((cells) => (cells.length > 1 ? [cells[0], cells[ID_CELL]] : cells)),
    ).toEqual([["41", "T1"], ["46", "T3"], [""]]);
    expect(result.bad[0]).toBe(43);
    expect(result.bad[1]).toMatch(/^not valid JSON: /);
    expect(result.bad.slice(2)).toEqual([
      44,
      "amount: must be a plain decimal number (no exponent), got 1e3",
    ]);
  });

  it("gives no COPY text for a batch of bad lines", () => {
    const result = parseBatch("players", { firstLine: 1, bytes: Buffer.from("[]\n") });
    expect(result.copy.length).toBe(0);
    expect(result).toMatchObject({ lines: 1, bad: [1, "not a JSON object"] });
  });
});

describe("realCalendar (the fast path of the instant check)", () => {
  it("agrees with the Date round trip on canonical instants, real or not", () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")),
        two(13),
        two(32),
        two(23),
        two(59),
        two(59),
        (y, mo, d, h, mi, s) => {
          const value = `${y}-${mo}-${d}T${h}:${mi}:${s}.000Z`;
          const ms = Date.parse(value);
          const roundTrip =
            Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 16) === value.slice(0, 16);
          expect(realCalendar(value)).toBe(roundTrip);
        },
      ),
      { numRuns: 5_000 },
    );
    for (const leap of ["2024-02-29", "2000-02-29", "0000-02-29"])
      expect(realCalendar(`${leap}T00:00:00.000Z`)).toBe(true);
    for (const notLeap of ["2023-02-29", "1900-02-29", "2026-04-31"])
      expect(realCalendar(`${notLeap}T00:00:00.000Z`)).toBe(false);
  });
});

describe("ParsePool", () => {
  const pool = new ParsePool(2);
  afterAll(() => pool.close());

  it("parses in worker threads exactly as inline, each batch's result to its own caller", async () => {
    const batches = Array.from({ length: 12 }, (_, b) => ({
      firstLine: b * 3 + 1,
      bytes: Buffer.from(
        [tx(`T${b}a`), b % 4 === 0 ? "{bad" : tx(`T${b}b`), tx(`T${b}c`, "-0.5")].join("\n"),
      ),
    }));
    const results = await Promise.all(batches.map((batch) => pool.run("transactions", batch)));
    expect(pool.size).toBe(2);
    const plain = (r: BatchResult) => ({ ...r, copy: Buffer.from(r.copy).toString() });
    expect(results.map(plain)).toEqual(batches.map((batch) => plain(parseBatch("transactions", batch))));
  });
});
