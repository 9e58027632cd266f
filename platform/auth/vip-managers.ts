import { getEnv } from "@/platform/env/env";
import { authProviderSettings } from "./auth-options.ts";
import { DEMO_USERS } from "./demo-users.ts";

/**
 * Which VIP manager a verified caller is, by the token's subject (`sub`): the identity provider's stable id of the
 * person, which a user cannot edit, unlike the display name (`name`) that providers let users change. Profiles name
 * their manager by name (`vip_manager`), so VIP_MANAGER_SUBJECTS maps subjects to those names. The demo accounts,
 * when they are on, add their own VIP manager (subject `demo-vip-manager`, Sarah Mitchell).
 */
export function vipManagerSubjects(): ReadonlyMap<string, string> {
  const managers = new Map<string, string>();
  if (authProviderSettings().demoUsers) {
    for (const user of DEMO_USERS) if (user.role === "vip_manager") managers.set(user.id, user.name);
  }
  for (const [subject, name] of Object.entries(getEnv().VIP_MANAGER_SUBJECTS)) managers.set(subject, name);
  return managers;
}
