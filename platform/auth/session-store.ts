import { getPrisma } from "@/platform/db/client";
import { getEnv } from "@/platform/env/env";
import { isRole, type Role } from "./roles.ts";
import { seal, unseal } from "./sealed-token.ts";

/*
 * Back-office sign-in sessions, recorded in the table `auth_sessions`. The session cookie and every API token
 * minted from it name a session (`sid`); sign-out revokes it, and it ends at an absolute expiry that activity
 * never extends. Checks read the table at most once per AUTH_SESSION_CACHE_SECONDS per session and process:
 * a sign-out in this process is seen here at once, in another process within that window.
 */

export interface SessionState {
  id: string;
  subject: string;
  role: Role | null;
  /** The next-auth provider signed in with: `oidc` (roles re-read from the provider) or `credentials`. */
  provider: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  rolesCheckedAt: number;
  revoked: boolean;
}

/** The identity provider's tokens, for re-reading the user's roles (kept sealed in the table). */
export interface IdpTokens {
  refreshToken?: string;
  accessToken?: string;
  /** Seconds since the epoch. */
  accessTokenExpiresAt?: number;
}

/** Ended sessions are kept this long after their expiry (for support questions), then deleted at a sign-in. */
const RETAIN_ENDED_MS = 24 * 3600_000;
/** How long one instance may take to re-read a session's roles before another may try. */
const ROLES_CHECK_LEASE_MS = 30_000;
const MAX_CACHED = 10_000;

interface CacheEntry {
  state: SessionState | null;
  until: number;
}

// One cache per process, shared by the proxy's bundle and the route handlers' (each has its own module copies):
// a sign-out answered by a route handler is seen by the proxy at once.
const CACHE = Symbol.for("player-account-read.auth-session-cache");

function cache(): Map<string, CacheEntry> {
  const holder = globalThis as { [CACHE]?: Map<string, CacheEntry> };
  holder[CACHE] ??= new Map();
  return holder[CACHE];
}

function remember(id: string, state: SessionState | null, now = Date.now()): void {
  const entries = cache();
  entries.delete(id);
  const ttl = getEnv().AUTH_SESSION_CACHE_SECONDS * 1000;
  if (ttl === 0) return;
  entries.set(id, { state, until: now + ttl });
  if (entries.size > MAX_CACHED) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
}

/** Neither revoked nor past its absolute expiry (never extended, cached or not). */
export function isLive(state: SessionState | null, now = Date.now()): state is SessionState {
  return state !== null && !state.revoked && now < state.expiresAt;
}

/** A single sign-on session whose roles were last read from the provider AUTH_ROLE_RECHECK_SECONDS ago or more. */
export function rolesDue(state: SessionState, now = Date.now()): boolean {
  return state.provider === "oidc" && now >= state.rolesCheckedAt + getEnv().AUTH_ROLE_RECHECK_SECONDS * 1000;
}

const SELECT = {
  id: true,
  subject: true,
  role: true,
  provider: true,
  expiresAt: true,
  rolesCheckedAt: true,
  revokedAt: true,
} as const;

function toState(row: {
  id: string;
  subject: string;
  role: string | null;
  provider: string;
  expiresAt: Date;
  rolesCheckedAt: Date;
  revokedAt: Date | null;
}): SessionState {
  return {
    id: row.id,
    subject: row.subject,
    role: isRole(row.role) ? row.role : null,
    provider: row.provider,
    expiresAt: row.expiresAt.getTime(),
    rolesCheckedAt: row.rolesCheckedAt.getTime(),
    revoked: row.revokedAt !== null,
  };
}

/** The session as the table has it now (null: no such session), remembered for the next checks. */
export async function readSession(id: string): Promise<SessionState | null> {
  const row = await getPrisma().authSession.findUnique({ where: { id }, select: SELECT });
  const state = row ? toState(row) : null;
  remember(id, state);
  return state;
}

/**
 * The session's state: at once (no promise) when this process looked at it within AUTH_SESSION_CACHE_SECONDS,
 * else from the table. The API checks every app-issued token with it, so a cached answer costs a map lookup.
 */
export function sessionState(
  id: string,
  now = Date.now(),
): SessionState | null | Promise<SessionState | null> {
  const entry = cache().get(id);
  if (entry && now < entry.until) return entry.state;
  return readSession(id);
}

/** Records a new sign-in session, live for AUTH_SESSION_MAX_AGE_SECONDS from `now`. */
export async function createSession(
  input: { subject: string; role: Role | null; provider: string; idpTokens?: IdpTokens },
  now = Date.now(),
): Promise<SessionState> {
  const id = crypto.randomUUID();
  const state: SessionState = {
    id,
    subject: input.subject,
    role: input.role,
    provider: input.provider,
    expiresAt: now + getEnv().AUTH_SESSION_MAX_AGE_SECONDS * 1000,
    rolesCheckedAt: now,
    revoked: false,
  };
  const prisma = getPrisma();
  await prisma.authSession.create({
    data: {
      id,
      subject: state.subject,
      role: state.role,
      provider: state.provider,
      createdAt: new Date(now),
      expiresAt: new Date(state.expiresAt),
      rolesCheckedAt: new Date(now),
      idpTokens: input.idpTokens ? seal(JSON.stringify(input.idpTokens), id) : null,
    },
  });
  remember(id, state, now);
  await prisma.authSession.deleteMany({ where: { expiresAt: { lt: new Date(now - RETAIN_ENDED_MS) } } });
  return state;
}

/** Ends a session (sign-out, or roles the provider would not confirm): every check refuses it from now on. */
export async function revokeSession(id: string, reason: string, now = Date.now()): Promise<void> {
  // Forgotten first: this process refuses the session even if the write below fails.
  remember(id, null, now);
  await getPrisma().authSession.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date(now), endReason: reason, idpTokens: null, rolesCheckLeaseUntil: null },
  });
}

/**
 * Takes the right to re-read a session's roles (one instance at a time: a refresh token may be good for one use)
 * when they were last read before `dueBefore`. The provider's tokens when taken; undefined when another instance
 * holds it or the roles were read meanwhile.
 */
export async function claimRolesCheck(
  id: string,
  dueBefore: number,
  now = Date.now(),
): Promise<IdpTokens | undefined> {
  const prisma = getPrisma();
  const { count } = await prisma.authSession.updateMany({
    where: {
      id,
      revokedAt: null,
      rolesCheckedAt: { lt: new Date(dueBefore) },
      OR: [{ rolesCheckLeaseUntil: null }, { rolesCheckLeaseUntil: { lt: new Date(now) } }],
    },
    data: { rolesCheckLeaseUntil: new Date(now + ROLES_CHECK_LEASE_MS) },
  });
  if (count === 0) return undefined;
  const row = await prisma.authSession.findUnique({ where: { id }, select: { idpTokens: true } });
  const opened = row?.idpTokens ? unseal(row.idpTokens, id) : null;
  return opened ? (JSON.parse(opened) as IdpTokens) : {};
}

/** Records roles just re-read from the provider (and its new tokens), releasing the lease. */
export async function recordRoles(
  id: string,
  role: Role | null,
  idpTokens: IdpTokens,
  now = Date.now(),
): Promise<SessionState | null> {
  await getPrisma().authSession.updateMany({
    where: { id, revokedAt: null },
    data: {
      role,
      rolesCheckedAt: new Date(now),
      rolesCheckLeaseUntil: null,
      idpTokens: seal(JSON.stringify(idpTokens), id),
    },
  });
  return readSession(id);
}
