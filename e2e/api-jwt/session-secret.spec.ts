import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";

/*
 * Outside the embedded quick start nobody generates a session secret: a server on an operator's database
 * without NEXTAUTH_SECRET refuses to start, even when started without the launcher (which refuses first, see
 * scripts/serve-prepare.test.ts). Started without the launcher on a valid configuration, it says plainly that the
 * answers before its instrumentation ran lacked the request stamp. Ports: E2E_JWT_PORT + 43 (never bound when the
 * refusal works) and + 44.
 */
const DATABASE_URL = process.env.E2E_POSTGRES_URL;
test.skip(!DATABASE_URL, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");

const PORT = Number(process.env.E2E_JWT_PORT ?? 3103) + 43;
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

/** `next start` itself, without the launcher, on the test database; `output` gathers both of its streams. */
function startNextDirectly(port: number, env: Record<string, string> = {}) {
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: DATABASE_URL as string,
    AUTH_MODE: "demo",
    // The test database's URL is postgres, a superuser: allowed explicitly, as next start requires.
    DB_ALLOW_PRIVILEGED_ROLE: "on",
    ...env,
  };
  const server = spawn(
    process.execPath,
    [nextBin, "start", "--port", String(port), "--hostname", "127.0.0.1"],
    {
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const started = { server, output: "" };
  const gather = (d: Buffer) => {
    started.output += d.toString();
  };
  server.stdout.on("data", gather);
  server.stderr.on("data", gather);
  return started;
}

test("Next.js started directly on a database without NEXTAUTH_SECRET exits, saying why", async () => {
  test.setTimeout(120_000);
  const started = startNextDirectly(PORT);
  const timer = setTimeout(() => started.server.kill("SIGKILL"), 90_000);
  const code = await new Promise<number | null>((resolve) => started.server.on("exit", (c) => resolve(c)));
  clearTimeout(timer);
  expect(code, started.output).toBe(1);
  expect(started.output).toMatch(/refusing to start/);
  expect(started.output).toMatch(/NEXTAUTH_SECRET is not set/);
});

test("Next.js started without the launcher says that its first answers went out unstamped", async () => {
  test.setTimeout(120_000);
  const port = PORT + 1;
  const started = startNextDirectly(port, {
    NEXTAUTH_SECRET: "session-secret-spec-only-session-secret-spec-only",
  });
  const { server } = started;
  try {
    await expect
      .poll(() => started.output, { timeout: 90_000 })
      .toContain("started without scripts/serve.mjs");
    // From then on the stamp is installed: answers carry the security headers.
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.on("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
  }
});
