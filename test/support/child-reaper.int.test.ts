import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { natsServerAvailable } from "./nats-server.ts";

/*
 * A tool that starts a nats-server (the bench, a live test) and then crashes, is interrupted or simply exits
 * leaves no server behind: a stray one held the port and stalled the next run.
 */

// Beside nats-access.int.test.ts's (+37, +38), below the JWT tests' (+40..45).
const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 39;
const root = path.resolve(import.meta.dirname, "../..");

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs a tool that starts a nats-server then ends as `ending` says; the server's pid and whether it outlived it. */
async function runTool(ending: string, signal?: NodeJS.Signals): Promise<{ pid: number; stray: boolean }> {
  const code = `
    const { createNatsServer } = await import("./test/support/nats-server.ts");
    const server = createNatsServer(${PORT});
    await server.start();
    console.log("pid " + server.pid);
    ${ending}`;
  const tool = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((r) => tool.once("exit", r));
  const pid = await new Promise<number>((resolve, reject) => {
    let out = "";
    tool.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /pid (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    tool.once("exit", (c) => reject(new Error(`the tool exited (${c}) before its server started: ${out}`)));
  });
  if (signal) tool.kill(signal);
  await exited;
  const deadline = Date.now() + 10_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const stray = alive(pid);
  if (stray) process.kill(pid, "SIGKILL"); // this test leaves none either
  return { pid, stray };
}

describe.runIf(natsServerAvailable())("tools stop the servers they started, however they end", () => {
  it("on an uncaught error", async () => {
    const { stray } = await runTool(`setTimeout(() => { throw new Error("crash"); }, 50);`);
    expect(stray).toBe(false);
  }, 60_000);

  it("on an unhandled rejection", async () => {
    const { stray } = await runTool(`void Promise.reject(new Error("crash"));`);
    expect(stray).toBe(false);
  }, 60_000);

  it("on SIGTERM and SIGINT", async () => {
    const keepAlive = "setInterval(() => undefined, 1000);";
    expect((await runTool(keepAlive, "SIGTERM")).stray).toBe(false);
    expect((await runTool(keepAlive, "SIGINT")).stray).toBe(false);
  }, 60_000);

  it("on a plain exit that forgot to stop it", async () => {
    const { stray } = await runTool("process.exit(0);");
    expect(stray).toBe(false);
  }, 60_000);
});
