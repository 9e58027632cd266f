/**
 * Every table the running app writes, and how. The app's database role gets exactly these rights beyond
 * reading (`npm run db:roles`, scripts/db-roles-recipe.ts), and the start-up check (database-role.ts) counts any
 * other write right as a risk. A feature that writes a new table adds it here; nothing else needs to change.
 */
export const APP_TABLE_WRITES: Readonly<Record<string, readonly AppTableWrite[]>> = {
  // One multi-row INSERT per batch (platform/audit/record-audit-events.ts); the trail is append-only.
  audit_events: ["INSERT"],
  // Sign-in sessions (platform/auth/session-store.ts): created at sign-in, revoked and re-checked by UPDATE, and
  // deleted once long ended.
  auth_sessions: ["INSERT", "UPDATE", "DELETE"],
};

export type AppTableWrite = "INSERT" | "UPDATE" | "DELETE";

/**
 * Columns the app may not even read (`npm run db:roles` grants SELECT on the table's other columns only): the
 * webhook endpoints' signing secrets (the current one and, during a rotation's overlap, the previous one) are for
 * `npm run webhooks:dispatch`, which runs as the owner.
 */
export const APP_UNREADABLE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  webhook_endpoints: ["secret", "previous_secret"],
};

/** `table:PRIVILEGE` for each allowed write, the form the SQL checks compare with. */
export function appTableWriteKeys(): string[] {
  return Object.entries(APP_TABLE_WRITES).flatMap(([table, writes]) => writes.map((w) => `${table}:${w}`));
}
