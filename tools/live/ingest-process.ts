import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/*
 * `npm run ingest` as a child process (the fault tests kill it with SIGKILL; the bench measures its CPU).
 * Started through tsx's loader directly, so signals reach the consumer itself (npm does not forward them).
 */
export interface IngestProcess {
  child: ChildProcess;
  /** Lines of its output so far. */
  output: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function startIngestProcess(env: Record<string, string>): IngestProcess {
  const root = path.resolve(import.meta.dirname, "../..");
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/ingest.ts")], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
