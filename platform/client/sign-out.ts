import { SIGN_IN_PATH } from "@/platform/auth/paths";

/**
 * Signs out: the server ends the sign-in session (every copy of the cookie and every API token minted from it stop
 * working), drops the cookie, and says where to go next: the identity provider's end-session page for a single
 * sign-on session, else the sign-in page. That URL is built on the server and carries no ID token.
 */
export async function endAppSession(): Promise<string> {
  const res = await fetch("/api/auth/end-session", {
    method: "POST",
    cache: "no-store",
    credentials: "same-origin",
  });
  if (!res.ok) throw new Error(`sign-out answered ${res.status}`);
  const { url } = (await res.json()) as { url?: unknown };
  return typeof url === "string" ? url : SIGN_IN_PATH;
}
