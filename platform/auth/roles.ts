/** Back-office roles. They are shown to the user and carried in API tokens; platform/auth/scopes.ts maps them to scopes. */
export const ROLES = ["vip_manager", "support_agent", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  vip_manager: "VIP manager",
  support_agent: "Support agent",
  admin: "Admin",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The claims an identity provider may carry roles in; sign-in and the API read the same ones. */
export const ROLE_CLAIMS = ["role", "roles", "groups"] as const;

/** Least to most privileged: each role's scopes include the ones before it (see ROLE_SCOPES). */
const PRIVILEGE: readonly Role[] = ["support_agent", "vip_manager", "admin"];

function words(value: unknown): string[] {
  if (typeof value === "string") return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/**
 * The roles a token or an identity provider's claims name, from `role`, `roles` and `groups` (each a string,
 * space-separated, or an array of strings). Unknown names are ignored. The one mapping for sign-in and the API.
 */
export function rolesFromClaims(claims: Readonly<Record<string, unknown>>): Role[] {
  const named = new Set(ROLE_CLAIMS.flatMap((key) => words(claims[key])));
  return PRIVILEGE.filter((role) => named.has(role));
}

/**
 * The role a signed-in user is shown and carries in the tokens the app issues: the most privileged one named.
 * Scopes nest (support agent ⊂ VIP manager ⊂ admin), so it grants exactly what the API grants for all of them.
 */
export function primaryRole(roles: readonly Role[]): Role | null {
  return [...PRIVILEGE].reverse().find((role) => roles.includes(role)) ?? null;
}
