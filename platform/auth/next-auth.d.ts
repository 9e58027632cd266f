import type { DefaultSession } from "next-auth";
import type { Role } from "./roles.ts";

declare module "next-auth" {
  interface Session {
    user: DefaultSession["user"] & { id: string; role: Role | null };
    /** The sign-in session, sent to the API as X-Session-ID. */
    sessionId: string;
  }
  interface User {
    role?: Role | null;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** The server-side sign-in session (platform/auth/session-store.ts). */
    sid?: string;
    role?: Role | null;
    /** The session's absolute expiry, in seconds since the epoch: the cookie never outlives it. */
    sessionExpiresAt?: number;
  }
}
