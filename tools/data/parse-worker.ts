import { parentPort } from "node:worker_threads";
import { type ImportKind, type LineBatch, parseBatch } from "./parse-batch.ts";

/* A parse worker of db:import (see parse-pool.ts): batches in, their results out, one at a time. */
parentPort?.on("message", (message: { id: number; kind: ImportKind; batch: LineBatch }) => {
  parentPort?.postMessage({ id: message.id, result: parseBatch(message.kind, message.batch) });
});
