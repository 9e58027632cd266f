/*
 * `npm run db:roles`: creates or updates the owner and app roles of the app's database (scripts/db-roles-recipe.ts,
 * docs/configuration.md). Settings come from the environment only, so no password shows in the process list:
 *   DATABASE_ADMIN_URL  a superuser's URL of the app's database (required to run it)
 *   DB_OWNER_ROLE / DB_APP_ROLE            role names (par_owner / par_app)
 *   DB_OWNER_PASSWORD / DB_APP_PASSWORD    set the roles' passwords (sent as SCRAM verifiers); kept when unset
 * `npm run db:roles -- --print` writes the SQL instead of running it (no database needed).
 */
import { applyRolesRecipe, parseRolesEnv, rolesRecipeSql } from "./db-roles-recipe.ts";

const print = process.argv.includes("--print");
let settings: ReturnType<typeof parseRolesEnv>;
try {
  settings = parseRolesEnv(process.env, { needsAdminUrl: !print });
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

if (print) {
  process.stdout.write(rolesRecipeSql(settings));
} else {
  const notices = await applyRolesRecipe(settings.adminUrl, settings);
  for (const notice of notices) console.error(`Note: ${notice}`);
  console.log(
    `Roles ready: run db:migrate, db:seed and db:import as "${settings.ownerRole}"; the app connects as "${settings.appRole}".`,
  );
  for (const [role, given] of [
    [settings.ownerRole, settings.ownerPassword],
    [settings.appRole, settings.appPassword],
  ] as const) {
    if (!given)
      console.error(`Note: no password given for "${role}": it keeps the one it has (a new role has none).`);
  }
}
