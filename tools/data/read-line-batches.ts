import { createReadStream } from "node:fs";
import { asBuffer } from "./as-buffer.ts";
import { batchLines, type LineBatch } from "./parse-batch.ts";

/*
 * A file's lines in batches of about `batchBytes` bytes, as raw UTF-8 cut after a "\n" (never inside a
 * character or a "\r\n"), so the reading thread neither decodes nor splits: it only counts line ends to
 * number the next batch. Lines are numbered as readline numbers them: "\n", "\r\n" and a lone "\r" end a
 * line. Only one read chunk and one batch are held at a time (constant memory).
 */
const LF = 0x0a;
const CR = 0x0d;

/** Line ends in `bytes`, which ends just after a "\n". */
function countLineEnds(bytes: Uint8Array): number {
  const buffer = asBuffer(bytes);
  if (buffer.indexOf(CR) >= 0) return batchLines(buffer.toString("utf8")).length - 1;
  let n = 0;
  for (let i = buffer.indexOf(LF); i >= 0; i = buffer.indexOf(LF, i + 1)) n++;
  return n;
}

export async function* readLineBatches(
  file: string,
  batchBytes = 1 << 20,
  readBytes = 1 << 20,
): AsyncGenerator<LineBatch> {
  let lineNo = 1; // number of the first line of the next batch
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const cut = (upTo: Buffer): LineBatch => {
    pending.push(upTo);
    const bytes = new Uint8Array(pendingBytes + upTo.length); // its own memory, whatever the read buffers do
    let at = 0;
    for (const part of pending) {
      bytes.set(part, at);
      at += part.length;
    }
    pending = [];
    pendingBytes = 0;
    const batch = { firstLine: lineNo, bytes };
    lineNo += countLineEnds(bytes);
    return batch;
  };
  for await (const chunk of createReadStream(file, { highWaterMark: readBytes })) {
    const buffer = chunk as Buffer;
    const lastLf = buffer.lastIndexOf(LF);
    if (lastLf < 0 || pendingBytes + lastLf + 1 < batchBytes) {
      pending.push(buffer);
      pendingBytes += buffer.length;
      continue;
    }
    yield cut(buffer.subarray(0, lastLf + 1));
    if (lastLf + 1 < buffer.length) {
      const rest = buffer.subarray(lastLf + 1);
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes) yield cut(Buffer.alloc(0));
}
