import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fillGeneratedSecrets, generatableSecrets } from "./generated-secrets.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "secrets-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("fillGeneratedSecrets", () => {
  it("generates missing secrets once, stores them owner-only and reuses them", async () => {
    const file = path.join(dir, "nested", "auth-secrets.json");
    const first: Record<string, string | undefined> = {};
    expect(await fillGeneratedSecrets(first, file)).toEqual(["NEXTAUTH_SECRET", "AUTH_JWT_SECRET"]);
    expect(first.NEXTAUTH_SECRET?.length).toBeGreaterThanOrEqual(32);
    expect(first.AUTH_JWT_SECRET).not.toBe(first.NEXTAUTH_SECRET);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second: Record<string, string | undefined> = {};
    await fillGeneratedSecrets(second, file);
    expect(second).toEqual(first);
  });

  it("never replaces configured secrets", async () => {
    const file = path.join(dir, "auth-secrets.json");
    const env: Record<string, string | undefined> = { NEXTAUTH_SECRET: "configured", AUTH_JWT_SECRET: "too" };
    expect(await fillGeneratedSecrets(env, file)).toEqual([]);
    expect(env).toEqual({ NEXTAUTH_SECRET: "configured", AUTH_JWT_SECRET: "too" });
    await expect(readFile(file)).rejects.toThrow();
  });

  it("fills only what is missing", async () => {
    const file = path.join(dir, "auth-secrets.json");
    const env: Record<string, string | undefined> = { NEXTAUTH_SECRET: "configured" };
    expect(await fillGeneratedSecrets(env, file)).toEqual(["AUTH_JWT_SECRET"]);
    expect(env.NEXTAUTH_SECRET).toBe("configured");
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ AUTH_JWT_SECRET: env.AUTH_JWT_SECRET });
  });

  it("generates nothing for a deployment on the operator's database (DATABASE_URL)", async () => {
    const file = path.join(dir, "auth-secrets.json");
    const env: Record<string, string | undefined> = {
      DATABASE_URL: "postgresql://db/players",
      AUTH_MODE: "jwt",
    };
    expect(generatableSecrets(env)).toEqual([]);
    expect(await fillGeneratedSecrets(env, file)).toEqual([]);
    expect(env.AUTH_JWT_SECRET).toBeUndefined();
    expect(env.NEXTAUTH_SECRET).toBeUndefined();
    await expect(readFile(file)).rejects.toThrow();
  });

  it("never generates AUTH_JWT_SECRET in AUTH_MODE=jwt, even for the embedded database", async () => {
    const file = path.join(dir, "auth-secrets.json");
    const env: Record<string, string | undefined> = { AUTH_MODE: "jwt" };
    expect(await fillGeneratedSecrets(env, file)).toEqual(["NEXTAUTH_SECRET"]);
    expect(env.AUTH_JWT_SECRET).toBeUndefined();
    expect(generatableSecrets({ AUTH_MODE: "demo" })).toEqual(["NEXTAUTH_SECRET", "AUTH_JWT_SECRET"]);
  });
});
