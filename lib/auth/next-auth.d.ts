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
    sid?: string;
    role?: Role | null;
    /** The provider's ID token: the id_token_hint of RP-initiated logout. */
    idToken?: string;
  }
}
