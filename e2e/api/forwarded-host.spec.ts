import { expect, test } from "@playwright/test";

/*
 * These servers have no NEXTAUTH_URL, so the launcher lets next-auth build its URLs from the request's host
 * (AUTH_TRUST_HOST), and no TRUSTED_PROXIES: nothing in front of them may speak for the client. Before, next-auth took
 * a client's X-Forwarded-Host for this server's name.
 */
const FORWARDED = { "X-Forwarded-Host": "evil.example" };

test("a client's X-Forwarded-Host is not this server's name without TRUSTED_PROXIES", async ({
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL ?? "").origin;
  const providers = await (await request.get("/api/auth/providers", { headers: FORWARDED })).json();
  const urls = Object.values(providers as Record<string, { signinUrl: string; callbackUrl: string }>).flatMap(
    (p) => [p.signinUrl, p.callbackUrl],
  );
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) expect(new URL(url).origin).toBe(origin);
  const signIn = await request.get("/api/auth/signin", { headers: FORWARDED, maxRedirects: 0 });
  expect(signIn.status()).toBe(302);
  expect(signIn.headers().location).not.toContain("evil.example");
});
