/*
 * The loader hooks of test/support/loaded-modules.mjs. They run on the loader's own thread (Node 20 and later),
 * which writes each resolved URL down as it goes: a process that exits or is killed loses none of them.
 */
import { appendFileSync } from "node:fs";

let log;
let pid;

export function initialize(data) {
  log = data.log;
  pid = data.pid;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, `${pid} ${resolved.url}\n`);
  return resolved;
}
