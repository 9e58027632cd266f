/*
 * A browser's cookies and nothing else, over plain HTTP: signs in with a password as next-auth's client does and
 * keeps the cookies the server sets, so a test can copy, replay or drop them (a stolen cookie is just its value).
 */

export class SessionClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  /** Another client holding the same cookies right now (a copy of them). */
  copy(): SessionClient {
    const copy = new SessionClient(this.baseUrl);
    for (const [name, value] of this.cookies) copy.cookies.set(name, value);
    return copy;
  }

  /** fetch() with this client's cookies, keeping (or dropping) those the answer sets; redirects are not followed. */
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set("Cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const res = await fetch(new URL(path, this.baseUrl), { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** The session cookie's value (next-auth's, over http), or undefined. */
  get sessionCookie(): string | undefined {
    return this.cookies.get("next-auth.session-token");
  }

  /** POST /api/auth/end-session as the pages' sign-out button does (same origin); its JSON answer. */
  async signOut(): Promise<{ status: number; body: { url?: string } }> {
    const res = await this.fetch("/api/auth/end-session", {
      method: "POST",
      headers: { Origin: new URL(this.baseUrl).origin },
    });
    return { status: res.status, body: (await res.json()) as { url?: string } };
  }

  /** GET /api/session/token: the API credentials the pages get, or the status when refused. */
  async apiCredentials(): Promise<{
    status: number;
    token?: string;
    sessionId?: string;
    expiresAt?: number;
  }> {
    const res = await this.fetch("/api/session/token");
    if (res.status !== 200) {
      await res.body?.cancel();
      return { status: res.status };
    }
    const body = (await res.json()) as { access_token: string; session_id: string; expires_at: number };
    return { status: 200, token: body.access_token, sessionId: body.session_id, expiresAt: body.expires_at };
  }
}

/** A client signed in with a password (next-auth's credentials provider: CSRF token, then the form POST). */
export async function passwordSignIn(
  baseUrl: string,
  credentials: { username: string; password: string },
): Promise<SessionClient> {
  const client = new SessionClient(baseUrl);
  const { csrfToken } = (await (await client.fetch("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await client.fetch("/api/auth/callback/credentials", {
    method: "POST",
    body: new URLSearchParams({ ...credentials, csrfToken, callbackUrl: "/", json: "true" }),
  });
  await res.body?.cancel();
  if (!client.sessionCookie) throw new Error(`password sign-in failed (${res.status})`);
  return client;
}
