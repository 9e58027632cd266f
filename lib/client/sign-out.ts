import { SIGN_IN_PATH } from "@/lib/auth/paths";

/*
 * next-auth's sign-out as its client does it (a CSRF token from /api/auth/csrf, then a form POST to
 * /api/auth/signout, which clears the session cookie), without importing next-auth/react: its transpiled
 * client is ~12 KB gzip, and the sign-out button sits in the header of every page. The sign-in page, which
 * needs signIn, still loads it.
 */
export async function endAppSession(): Promise<void> {
  const csrf = await fetch("/api/auth/csrf", { cache: "no-store", credentials: "same-origin" });
  const { csrfToken } = (await csrf.json()) as { csrfToken?: unknown };
  if (typeof csrfToken !== "string") throw new Error("no CSRF token from /api/auth/csrf");
  const res = await fetch("/api/auth/signout", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: SIGN_IN_PATH, json: "true" }),
  });
  if (!res.ok) throw new Error(`sign-out answered ${res.status}`);
}
