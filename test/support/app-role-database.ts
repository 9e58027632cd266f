import pg from "pg";
import { applyMigrations } from "../../platform/db/schema-engine.ts";
import { applyRolesRecipe, type RolesRecipe } from "../../scripts/db-roles-recipe.ts";
import { dropPostgresDatabase, recreatePostgresDatabase } from "./test-db.ts";
import { loadTestFixtures } from "./test-fixtures.ts";

/** A database set up as docs/configuration.md says: roles by `db:roles`, migrated and loaded as the owner. */
export interface AppRoleDatabase {
  recipe: Required<RolesRecipe>;
  /** postgres, a superuser. */
  adminUrl: string;
  ownerUrl: string;
  appUrl: string;
  stop(): Promise<void>;
}

export function urlAs(url: string, role: string, password: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = password;
  return u.toString();
}

/**
 * Roles are shared by the whole server: theirs carry TEST_DB_PREFIX, `name` and the process id, and are dropped
 * with the database. `legacy`: migrate as postgres first, as the setup before db:roles did.
 */
export async function appRoleDatabase(
  name: string,
  options: { legacy?: boolean } = {},
): Promise<AppRoleDatabase> {
  const base = `${process.env.TEST_DB_PREFIX ?? "par"}_${name}`;
  const database = `${base}_${process.pid}`;
  const recipe = {
    ownerRole: `${base}_owner_${process.pid}`,
    appRole: `${base}_app_${process.pid}`,
    ownerPassword: "owner-password-for-tests-only",
    appPassword: "app-password-for-tests-only",
  };
  const adminUrl = await recreatePostgresDatabase(database);
  const ownerUrl = urlAs(adminUrl, recipe.ownerRole, recipe.ownerPassword);
  const appUrl = urlAs(adminUrl, recipe.appRole, recipe.appPassword);
  const stop = async () => {
    await dropPostgresDatabase(database);
    const admin = new pg.Client({ connectionString: adminUrl.replace(`/${database}`, "/postgres") });
    await admin.connect();
    try {
      await admin.query(`DROP ROLE IF EXISTS "${recipe.appRole}", "${recipe.ownerRole}"`);
    } finally {
      await admin.end();
    }
  };
  try {
    if (options.legacy) await applyMigrations(adminUrl);
    await applyRolesRecipe(adminUrl, recipe);
    await applyMigrations(ownerUrl);
    const pool = new pg.Pool({ connectionString: ownerUrl, max: 1 });
    try {
      await loadTestFixtures(pool);
    } finally {
      await pool.end();
    }
    await applyRolesRecipe(adminUrl, recipe);
  } catch (error) {
    await stop();
    throw error;
  }
  return { recipe, adminUrl, ownerUrl, appUrl, stop };
}
