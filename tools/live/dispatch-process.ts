import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/*
 * `npm run webhooks:dispatch` as a child process (the at-least-once test kills it with SIGKILL mid-delivery).
 * Started through tsx's loader directly, so signals reach the dispatcher itself.
 */
export interface DispatchProcess {
  child: ChildProcess;
  output: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function startDispatchProcess(env: Record<string, string>): DispatchProcess {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "scripts/webhooks-dispatch.ts")],
    {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString().split("\n").filter(Boolean));
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
