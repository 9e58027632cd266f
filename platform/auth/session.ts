import { getServerSession, type Session } from "next-auth";
import { getAuthOptions } from "./auth-options.ts";

/** The signed-in user's session in a server component or route handler, or null. */
export async function getCurrentSession(): Promise<Session | null> {
  const session = await getServerSession(getAuthOptions());
  return session?.sessionId ? session : null;
}
