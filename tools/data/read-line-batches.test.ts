import { once } from "node:events";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchLines } from "./parse-batch.ts";
import { readLineBatches } from "./read-line-batches.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "line-batches-"));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** [line number, text] as readline numbers a file (db:import's numbering before batches). */
async function readlineLines(file: string): Promise<[number, string][]> {
  const input = createInterface({
    input: createReadStream(file, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const out: [number, string][] = [];
  let n = 0;
  input.on("line", (line) => {
    out.push([++n, line]);
  });
  await once(input, "close");
  return out;
}

/** What parseBatch sees: each batch's lines from its first line's number (the "" after a final line end dropped). */
async function batchedLines(
  file: string,
  batchBytes: number,
  readBytes: number,
): Promise<[number, string][]> {
  const out: [number, string][] = [];
  for await (const batch of readLineBatches(file, batchBytes, readBytes)) {
    const lines = batchLines(Buffer.from(batch.bytes).toString("utf8"));
    if (lines[lines.length - 1] === "") lines.pop();
    lines.forEach((line, i) => {
      out.push([batch.firstLine + i, line]);
    });
  }
  return out;
}

describe("readLineBatches", () => {
  it("numbers lines exactly as readline does, whatever the batch and read sizes", async () => {
    const file = path.join(dir, "mixed.ndjson");
    await writeFile(file, 'a\r\nbé\n\n{"x":1}\rc\r\n\r\nlast');
    const expected = await readlineLines(file);
    for (const [batchBytes, readBytes] of [
      [1, 1],
      [2, 3],
      [5, 2],
      [1 << 20, 1 << 20],
    ] as const) {
      expect(await batchedLines(file, batchBytes, readBytes)).toEqual(expected);
    }
  });

  it("agrees with readline on arbitrary text with \\n, \\r\\n, lone \\r and blank lines", async () => {
    const file = path.join(dir, "random.ndjson");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom("a", "é", "{", "\n", "\r", "\r\n", " "), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        async (parts, batchBytes, readBytes) => {
          await writeFile(file, parts.join(""));
          expect(await batchedLines(file, batchBytes, readBytes)).toEqual(await readlineLines(file));
        },
      ),
      { numRuns: 200 },
    );
  });
});
