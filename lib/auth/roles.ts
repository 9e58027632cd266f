/** Back-office roles. They are shown to the user and carried in API tokens; lib/auth/scopes.ts maps them to scopes. */
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
