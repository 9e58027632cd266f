import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/*
 * The launcher's configuration step (scripts/serve.mjs runs it before anything starts), run as the launcher
 * runs it: a child process with the operator's environment, in a scratch directory (its .data/ is the
 * quick start's secrets file).
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const SCRIPT = path.join(root, "scripts/serve-prepare.ts");
// By path: the scratch directory has no node_modules to resolve `tsx` from.
const TSX = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;
const SECRET = "an-operator-chosen-secret-of-32-bytes-or-more";
const JWKS_ONLY = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/none",
  AUTH_MODE: "jwt",
  AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json",
  AUTH_JWT_ISSUER: "https://id.example",
  AUTH_JWT_AUDIENCE: "player-read-api",
};

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), "serve-prepare-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

function prepare(env: Record<string, string>) {
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    TSX_TSCONFIG_PATH: path.join(root, "tsconfig.json"),
    LOG_LEVEL: "silent",
    ...env,
  };
  const run = spawnSync(process.execPath, ["--import", TSX, SCRIPT], {
    cwd,
    encoding: "utf8",
    env: childEnv as NodeJS.ProcessEnv,
    timeout: 60_000,
  });
  const line = run.stdout.split("\n").find((l) => l.startsWith("{"));
  return {
    status: run.status,
    stderr: run.stderr,
    added: line ? (JSON.parse(line) as Record<string, string>) : null,
  };
}

describe("serve-prepare (the launcher's configuration step)", { timeout: 30_000 }, () => {
  it("generates no secret for a JWKS-only deployment on the operator's database", async () => {
    const run = prepare({ ...JWKS_ONLY, NEXTAUTH_SECRET: SECRET });
    expect(run.status).toBe(0);
    expect(run.added).not.toHaveProperty("AUTH_JWT_SECRET");
    expect(run.added).not.toHaveProperty("NEXTAUTH_SECRET");
    await expect(readFile(path.join(cwd, ".data/auth-secrets.json"))).rejects.toThrow();
  });

  it("refuses a deployment on the operator's database without NEXTAUTH_SECRET, saying why", () => {
    for (const env of [JWKS_ONLY, { DATABASE_URL: JWKS_ONLY.DATABASE_URL, AUTH_MODE: "demo" }]) {
      const run = prepare(env);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /NEXTAUTH_SECRET is not set: the back-office sign-in signs its session cookies/,
      );
      expect(run.added).toBeNull();
    }
  });

  it("refuses an AUTH_JWT_SECRET shorter than 32 bytes, and a JWKS without issuer and audience", () => {
    const short = prepare({ AUTH_MODE: "jwt", AUTH_JWT_SECRET: "short-secret", NEXTAUTH_SECRET: SECRET });
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/AUTH_JWT_SECRET: must be at least 32 bytes/);
    const noAudience = prepare({ ...JWKS_ONLY, AUTH_JWT_AUDIENCE: "", NEXTAUTH_SECRET: SECRET });
    expect(noAudience.status).toBe(2);
    expect(noAudience.stderr).toMatch(/AUTH_JWT_AUDIENCE/);
  });

  it("the embedded quick start (no DATABASE_URL) still works with no configuration", async () => {
    const run = prepare({});
    expect(run.status).toBe(0);
    expect(Object.keys(run.added ?? {}).sort()).toEqual([
      "AUTH_JWT_SECRET",
      "AUTH_TRUST_HOST",
      "NEXTAUTH_SECRET",
    ]);
    const stored = JSON.parse(await readFile(path.join(cwd, ".data/auth-secrets.json"), "utf8"));
    expect(stored.AUTH_JWT_SECRET).toBe(run.added?.AUTH_JWT_SECRET);
  });
});
