import pg from "pg";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { stubEnvForEachTest } from "@/test/support/env";
import { closeApp } from "@/test/support/in-process-app";
import { claimRolesCheck, createSession, isLive, readSession, revokeSession } from "./session-store.ts";

/* The sign-in sessions table (auth_sessions) on the test database: what it keeps, and how. */
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
const tokens = {
  refreshToken: "rt-secret-refresh-token-value",
  accessToken: "at-value",
  accessTokenExpiresAt: 1,
};

afterAll(async () => {
  await closeApp();
  await sql.end();
});
stubEnvForEachTest({
  DATABASE_URL: inject("databaseUrl"),
  NEXTAUTH_SECRET: "session-store-test-secret-0123456789abcdef",
  AUTH_MODE: "jwt",
  AUTH_JWT_SECRET: "session-store-test-jwt-secret-0123456789",
});
afterEach(() => {});

const sso = () => createSession({ subject: "ada.admin", role: "admin", provider: "oidc", idpTokens: tokens });

describe("sign-in sessions", () => {
  it("keep the provider's tokens sealed: not readable in the table, not movable to another row", async () => {
    const a = await sso();
    const b = await createSession({ subject: "sam", role: null, provider: "oidc", idpTokens: {} });
    const { rows } = await sql.query<{ idp_tokens: string }>(
      "SELECT idp_tokens FROM auth_sessions WHERE id = $1",
      [a.id],
    );
    expect(rows[0]?.idp_tokens).toMatch(/^v1\./);
    expect(rows[0]?.idp_tokens).not.toContain("rt-secret");
    expect(await claimRolesCheck(a.id, Date.now() + 1)).toEqual(tokens);
    // The sealed value copied into another session's row does not open there: no tokens, so no re-read.
    await sql.query("UPDATE auth_sessions SET idp_tokens = $1 WHERE id = $2", [rows[0]?.idp_tokens, b.id]);
    expect(await claimRolesCheck(b.id, Date.now() + 1)).toEqual({});
  });

  it("let one instance at a time re-read the roles (a lease), and only when they are due", async () => {
    const session = await sso();
    expect(await claimRolesCheck(session.id, session.rolesCheckedAt)).toBeUndefined();
    const due = session.rolesCheckedAt + 1;
    expect(await claimRolesCheck(session.id, due)).toEqual(tokens);
    expect(await claimRolesCheck(session.id, due)).toBeUndefined();
    // A lease not released (the instance died) is taken over after 30 s.
    expect(await claimRolesCheck(session.id, due, Date.now() + 30_001)).toEqual(tokens);
  });

  it("end at sign-out: refused at once, the provider's tokens erased, the reason kept", async () => {
    const session = await sso();
    expect(isLive(await readSession(session.id))).toBe(true);
    await revokeSession(session.id, "sign-out");
    expect(isLive(await readSession(session.id))).toBe(false);
    const { rows } = await sql.query(
      "SELECT idp_tokens, end_reason, revoked_at FROM auth_sessions WHERE id = $1",
      [session.id],
    );
    expect(rows[0]).toMatchObject({ idp_tokens: null, end_reason: "sign-out" });
    expect(rows[0]?.revoked_at).toBeInstanceOf(Date);
    expect(await claimRolesCheck(session.id, Date.now() + 1)).toBeUndefined();
  });

  it("are deleted a day after they expire, at the next sign-in", async () => {
    const old = await createSession(
      { subject: "x", role: null, provider: "credentials" },
      Date.now() - 50 * 3600_000,
    );
    const recent = await createSession(
      { subject: "y", role: null, provider: "credentials" },
      Date.now() - 13 * 3600_000,
    );
    await createSession({ subject: "z", role: null, provider: "credentials" });
    const { rows } = await sql.query<{ id: string }>("SELECT id FROM auth_sessions WHERE id = ANY($1)", [
      [old.id, recent.id],
    ]);
    expect(rows.map((r) => r.id)).toEqual([recent.id]);
  });
});
