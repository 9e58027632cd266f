import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";

/*
 * Outside the embedded quick start nobody generates a session secret: a server on an operator's database
 * without NEXTAUTH_SECRET refuses to start, even when started without the launcher (which refuses first, see
 * scripts/serve-prepare.test.ts). Port: E2E_JWT_PORT + 43 (never bound when the refusal works).
 */
const DATABASE_URL = process.env.E2E_POSTGRES_URL;
test.skip(!DATABASE_URL, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");

const PORT = Number(process.env.E2E_JWT_PORT ?? 3103) + 43;
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

test("Next.js started directly on a database without NEXTAUTH_SECRET exits, saying why", async () => {
  test.setTimeout(120_000);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: DATABASE_URL as string,
    AUTH_MODE: "demo",
  };
  const server = spawn(
    process.execPath,
    [nextBin, "start", "--port", String(PORT), "--hostname", "127.0.0.1"],
    {
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  server.stdout.on("data", (d: Buffer) => {
    output += d.toString();
  });
  server.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const timer = setTimeout(() => server.kill("SIGKILL"), 90_000);
  const code = await new Promise<number | null>((resolve) => server.on("exit", (c) => resolve(c)));
  clearTimeout(timer);
  expect(code, output).toBe(1);
  expect(output).toMatch(/refusing to start/);
  expect(output).toMatch(/NEXTAUTH_SECRET is not set/);
});
