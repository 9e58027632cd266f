/*
 * A throwaway NATS JetStream server (nats-server -js on its own port, its store in a temporary directory) that a
 * test can stop, kill and start again on the same store, to see what the consumer does while the broker is
 * really gone. Never touches the machine's shared server at 4222. `config`: nats-server configuration text (e.g.
 * accounts with permissions) under the port, host and JetStream store it sets itself. The server is killed when
 * the process that started it ends, however it ends (child-reaper.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { reapOnExit } from "./child-reaper.ts";

export interface NatsServer {
  url: string;
  /** The running server's process id (undefined when stopped). */
  readonly pid: number | undefined;
  start(): Promise<void>;
  /** SIGTERM (`lame duck` not needed): what an operator's restart does. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/** Whether the nats-server binary is on PATH. */
export function natsServerAvailable(): boolean {
  try {
    execFileSync("nats-server", ["--version"], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });
}

export function createNatsServer(port: number, options: { config?: string } = {}): NatsServer {
  const dir = mkdtempSync(path.join(tmpdir(), "par-nats-"));
  const store = path.join(dir, "store");
  let args = ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", store];
  if (options.config !== undefined) {
    const file = path.join(dir, "nats.conf");
    writeFileSync(
      file,
      `host: 127.0.0.1\nport: ${port}\njetstream { store_dir: ${JSON.stringify(store)} }\n${options.config}\n`,
    );
    args = ["-c", file];
  }
  let child: ChildProcess | null = null;
  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    get pid() {
      return child?.exitCode === null ? child.pid : undefined;
    },
    async start() {
      child = reapOnExit(spawn("nats-server", args, { stdio: "ignore" }));
      for (let i = 0; i < 200; i++) {
        if (await portOpen(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`nats-server did not listen on ${port}`);
    },
    async stop() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGTERM");
      await exited;
    },
    async destroy() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
