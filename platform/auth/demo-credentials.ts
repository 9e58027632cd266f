import type { Role } from "./roles.ts";

/**
 * The demo accounts as published on the sign-in page and in the README. Only their scrypt hashes
 * are used to sign in (platform/auth/demo-users.ts); a unit test checks that the two agree.
 */
export const DEMO_CREDENTIALS: readonly { username: string; password: string; role: Role }[] = [
  { username: "vip.manager", password: "vip-demo-2026", role: "vip_manager" },
  { username: "support.agent", password: "support-demo-2026", role: "support_agent" },
  { username: "admin", password: "admin-demo-2026", role: "admin" },
];
