import type { ChildProcess } from "node:child_process";
import { constants } from "node:os";
import { isMainThread } from "node:worker_threads";

/*
 * The servers and scripts a tool or test starts (nats-server, npm run ingest, …) die with it, however it ends: a
 * normal exit, an uncaught error, a signal. A crashed bench once left a nats-server holding its port, and the
 * next run stalled on it.
 */

/** Each child, and whether to kill its whole process group (a detached one that starts children of its own). */
const children = new Map<ChildProcess, boolean>();
let installed = false;

function killAll() {
  for (const [child, group] of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        if (group && child.pid) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  children.clear();
}

function install() {
  if (installed) return;
  installed = true;
  process.once("exit", killAll);
  // Observes an uncaught error (or unhandled rejection) without changing how the process then ends.
  process.on("uncaughtExceptionMonitor", killAll);
  if (!isMainThread) return; // signals reach only the main thread
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      killAll();
      // Alone, this listener would swallow the signal: end as the signal would have.
      if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
    });
  }
}

/**
 * Kills `child` (SIGKILL) when this process ends, should it still run then; `group`: its process group (a child
 * spawned with `detached: true`).
 */
export function reapOnExit<T extends ChildProcess>(child: T, options: { group?: boolean } = {}): T {
  install();
  children.set(child, options.group ?? false);
  child.once("exit", () => children.delete(child));
  return child;
}
