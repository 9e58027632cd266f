import type { JWTPayload } from "jose";
import { type Role, rolesFromClaims } from "./roles.ts";

/*
 * Least privilege: what a caller may do is a set of scopes, defined here once.
 * A token grants scopes through the OAuth-style `scope` claim (space-separated) and/or through roles
 * (`role`, `roles` or `groups`: arrays or space-separated strings; platform/auth/roles.ts), mapped below.
 */

export const SCOPES = {
  /** Read player profiles, transactions and search results; e-mail and phone come back masked. */
  playersRead: "players:read",
  /** See full e-mail and phone numbers (and search by e-mail). */
  playersPii: "players:pii",
  /** Read the audit trail of reads. */
  auditRead: "audit:read",
  /**
   * Read the webhook events sent in the last 30 days, bodies included (GET /webhook-events). No role carries it:
   * an admin grants it in the `scope` claim of a receiver's own token.
   */
  webhooksRead: "webhooks:read",
  /** Read every player's transactions at once (GET /transactions): a copy of the whole ledger. */
  transactionsBulk: "transactions:bulk",
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

export const ALL_SCOPES: readonly Scope[] = Object.values(SCOPES);

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "players:read":
    "Read player profiles, transaction lists and search results. Without players:pii, e-mail and phone are masked.",
  "players:pii": "See players' full e-mail addresses and phone numbers; search matches e-mail addresses.",
  "audit:read": "Read the audit trail of who read a player's data.",
  "webhooks:read":
    "Read the webhook events sent in the last 30 days: each event's body as sent (player data included), its endpoint and every attempt's status.",
  "transactions:bulk":
    "Read every player's transactions in one paged read (GET /transactions), for a machine client's copy. Admins have it; a machine client only when its token's `scope` grants it.",
};

// One list of roles for the sign-in and for the API's scopes.
export { ROLES, type Role } from "./roles.ts";

export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  // transactions:bulk copies every player's ledger at once: admins, and machine clients granted it by `scope`.
  admin: [SCOPES.playersRead, SCOPES.playersPii, SCOPES.auditRead, SCOPES.transactionsBulk],
  vip_manager: [SCOPES.playersRead, SCOPES.playersPii],
  support_agent: [SCOPES.playersRead],
};

/** What the spec's demo deployment gives any token: full profiles, but not the audit trail. */
export const DEMO_SCOPES: readonly Scope[] = [SCOPES.playersRead, SCOPES.playersPii];

const isScope = (s: string): s is Scope => (ALL_SCOPES as readonly string[]).includes(s);

function words(value: unknown): string[] {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

export { rolesFromClaims };

/** The scopes a verified token grants: its `scope` claim plus the scopes of its roles. Unknown ones are ignored. */
export function scopesFromClaims(claims: JWTPayload): Scope[] {
  const granted = new Set<Scope>(words(claims.scope).filter(isScope));
  for (const role of rolesFromClaims(claims)) for (const s of ROLE_SCOPES[role]) granted.add(s);
  // Keep a stable order (the order of SCOPES) so logs and audit records compare easily.
  return ALL_SCOPES.filter((s) => granted.has(s));
}

export function scopesForRoles(roles: readonly Role[]): Scope[] {
  const granted = new Set(roles.flatMap((r) => ROLE_SCOPES[r]));
  return ALL_SCOPES.filter((s) => granted.has(s));
}

/** The space-separated `scope` claim for a set of roles: what the UI puts into the tokens it issues. */
export function scopeClaimForRoles(roles: readonly Role[]): string {
  return scopesForRoles(roles).join(" ");
}

export function hasScope(principal: { scopes: readonly Scope[] }, scope: Scope): boolean {
  return principal.scopes.includes(scope);
}
