import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { SCRIPT_SOURCES } from "../../scripts/compiled-scripts.mjs";
import { reapOnExit } from "../support/child-reaper.ts";

/*
 * A worker's entry point as a child process, by its name in scripts/compiled-scripts.mjs: `ingest` (the fault tests
 * kill it with SIGKILL; the bench measures its CPU) and `webhooks-dispatch` (the at-least-once test kills it
 * mid-delivery). Started through tsx's
 * loader directly, so signals reach the script itself (npm does not forward them). Killed when this process ends,
 * however it ends (child-reaper.ts).
 */
export interface ScriptProcess {
  child: ChildProcess;
  /** The last 2,000 lines of its output so far. */
  output: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts the entry point named `script` (from source) with LOG_LEVEL=info and `env` over this process's environment. */
export function startScriptProcess(
  script: "ingest" | "webhooks-dispatch",
  env: Record<string, string>,
): ScriptProcess {
  const source = SCRIPT_SOURCES[script];
  if (!source) throw new Error(`no entry point named ${script}`);
  const root = path.resolve(import.meta.dirname, "../..");
  const child = reapOnExit(
    spawn(process.execPath, ["--import", "tsx", path.join(root, source)], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString().split("\n").filter(Boolean));
    if (output.length > 2_000) output.splice(0, output.length - 2_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return {
    child,
    output,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      await exited;
    },
  };
}
