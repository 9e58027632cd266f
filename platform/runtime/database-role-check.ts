import { type DatabaseRole, inspectDatabaseRole } from "@/platform/db/database-role";
import { describeError, log } from "@/platform/log/log";

/** Logged (with the role and its risks) when the server runs on a privileged role. */
export const PRIVILEGED_ROLE_WARNING =
  "The database role can rewrite the audit trail or the player data: connect as the app role that `npm run db:roles` creates (docs/configuration.md).";

/** Why `next start` stops on a privileged role, and the explicit way round it. */
export const PRIVILEGED_ROLE_REFUSAL = `${PRIVILEGED_ROLE_WARNING} Set DB_ALLOW_PRIVILEGED_ROLE=on to run on it anyway (warned at every start).`;

export const ROLE_UNCHECKED_WARNING =
  "Could not check the database role at start; checking again until the database answers.";

export interface RoleCheckOptions {
  /** `next start`: a privileged role stops the server unless allowed. `next dev` only warns. */
  production: boolean;
  /** DB_ALLOW_PRIVILEGED_ROLE=on: an explicit, logged choice to run on a privileged role. */
  allowPrivileged: boolean;
  /** Called after the refusal is logged: the server must not serve. */
  refuse: () => void;
  inspect?: () => Promise<DatabaseRole>;
  /** How long the check may hold up the start; a database that is down is checked again later. */
  timeoutMs?: number;
  retryMs?: number;
}

export type RoleCheckOutcome = "least-privilege" | "embedded" | "warned" | "refused" | "unchecked";

function judge(role: DatabaseRole, options: RoleCheckOptions): RoleCheckOutcome {
  if (role.embedded) return "embedded";
  if (role.risks.length === 0) return "least-privilege";
  const fields = { role: role.name, risks: role.risks };
  if (options.production && !options.allowPrivileged) {
    log.error("refusing to start", { ...fields, reason: PRIVILEGED_ROLE_REFUSAL });
    options.refuse();
    return "refused";
  }
  log.warn(PRIVILEGED_ROLE_WARNING, fields);
  return "warned";
}

async function inspectWithin(options: RoleCheckOptions): Promise<DatabaseRole> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      (options.inspect ?? inspectDatabaseRole)(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), options.timeoutMs ?? 5_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks once, at start, that the database role cannot rewrite the audit trail (docs/configuration.md). A
 * database that is down at start must not keep the server from starting (it answers 503 until the database is
 * back): the check is then repeated in the background, and still stops a production server that turns out
 * to run on a privileged role.
 */
export async function checkDatabaseRoleAtStart(options: RoleCheckOptions): Promise<RoleCheckOutcome> {
  try {
    return judge(await inspectWithin(options), options);
  } catch (error) {
    log.warn(ROLE_UNCHECKED_WARNING, describeError(error));
    const retry = () => {
      inspectWithin(options).then(
        (role) => judge(role, options),
        () => setTimeout(retry, options.retryMs ?? 5_000).unref(),
      );
    };
    setTimeout(retry, options.retryMs ?? 5_000).unref();
    return "unchecked";
  }
}
