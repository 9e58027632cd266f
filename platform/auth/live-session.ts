import { getEnv } from "@/platform/env/env";
import { describeError, log } from "@/platform/log/log";
import { rereadRoles } from "./idp-roles.ts";
import {
  claimRolesCheck,
  isLive,
  readSession,
  recordRoles,
  revokeSession,
  rolesDue,
  type SessionState,
  sessionState,
} from "./session-store.ts";

/** How long to wait for another instance that is re-reading the same session's roles, and how often to look. */
const OTHER_CHECK_WAIT_MS = 5_000;
const OTHER_CHECK_POLL_MS = 200;

const inFlight = new Map<string, Promise<SessionState | null>>();

/**
 * For every path that trusts the session cookie (the page proxy, next-auth's session, /api/session/token): the
 * session when it is live, with its roles re-read from the identity provider when AUTH_ROLE_RECHECK_SECONDS have
 * passed; null when it has ended: revoked, past its absolute expiry, or its roles not confirmed by the provider.
 */
export async function liveSession(id: string): Promise<SessionState | null> {
  const state = await sessionState(id);
  if (!isLive(state)) return null;
  if (!rolesDue(state)) return state;
  // Concurrent requests of one browser (the proxy, the page, its token) wait for one re-read.
  let pending = inFlight.get(id);
  if (!pending) {
    pending = recheckRoles(state).finally(() => inFlight.delete(id));
    inFlight.set(id, pending);
  }
  return pending;
}

async function recheckRoles(state: SessionState): Promise<SessionState | null> {
  const now = Date.now();
  const tokens = await claimRolesCheck(state.id, now - getEnv().AUTH_ROLE_RECHECK_SECONDS * 1000, now);
  if (tokens === undefined) return otherInstanceCheck(state.id);
  let reread: Awaited<ReturnType<typeof rereadRoles>>;
  try {
    reread = await rereadRoles(state.subject, tokens);
  } catch (error) {
    // Fail closed: roles nobody could confirm are no roles. The user signs in again.
    log.info("sign-in session ended: the identity provider did not confirm the user's roles", {
      subject: state.subject,
      ...describeError(error),
    });
    await revokeSession(state.id, "roles not confirmed by the identity provider");
    return null;
  }
  if (reread.role !== state.role) {
    log.info("role changed at the identity provider", {
      subject: state.subject,
      from: state.role,
      to: reread.role,
    });
  }
  const updated = await recordRoles(state.id, reread.role, reread.tokens);
  return isLive(updated) ? updated : null;
}

/** Another instance holds the re-read (or has just done it): its result, once it is in the table. */
async function otherInstanceCheck(id: string): Promise<SessionState | null> {
  const deadline = Date.now() + OTHER_CHECK_WAIT_MS;
  for (;;) {
    const current = await readSession(id);
    if (!isLive(current)) return null;
    if (!rolesDue(current) || Date.now() >= deadline) return current;
    await new Promise((resolve) => setTimeout(resolve, OTHER_CHECK_POLL_MS));
  }
}
