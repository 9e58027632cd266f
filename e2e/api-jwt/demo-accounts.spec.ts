import { expect, test } from "@playwright/test";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";

/* This server runs AUTH_MODE=jwt on PostgreSQL with no identity provider and AUTH_DEMO_USERS unset. */

test.describe("demo accounts outside demo mode", () => {
  test("the demo admin's published credentials do not start a session", async ({ request }) => {
    const admin = DEMO_CREDENTIALS.find((c) => c.role === "admin");
    if (!admin) throw new Error("no admin demo account");
    const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
    const res = await request.post("/api/auth/callback/credentials", {
      form: { username: admin.username, password: admin.password, csrfToken, callbackUrl: "/", json: "true" },
      maxRedirects: 0,
    });
    expect(res.headersArray().some((h) => /^(__Secure-)?next-auth\.session-token=/.test(h.value))).toBe(
      false,
    );
    expect(await (await request.get("/api/auth/session")).json()).toEqual({});
    expect((await request.get("/api/session/token")).status()).toBe(401);
  });

  test("the sign-in page shows no demo password and says plainly that no sign-in method is set up", async ({
    request,
  }) => {
    const res = await request.get("/sign-in");
    expect(res.status()).toBe(200);
    const html = await res.text();
    for (const { password } of DEMO_CREDENTIALS) expect(html).not.toContain(password);
    expect(html).toContain("Signing in is not possible on this server.");
  });
});
