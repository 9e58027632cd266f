/*
 * Preloaded by tests (`NODE_OPTIONS=--import=<this file>`, inherited by every child process): appends to the file
 * LOADED_MODULES_LOG one line `<pid> <url>` per module the ES module loader resolves in this process, so a test
 * can tell which modules a process tree loaded, short-lived children included. Plain JavaScript: it must load
 * where no transpiler is.
 */
import { register } from "node:module";

if (process.env.LOADED_MODULES_LOG) {
  register("./loaded-modules-hooks.mjs", import.meta.url, {
    data: { log: process.env.LOADED_MODULES_LOG, pid: process.pid },
  });
}
