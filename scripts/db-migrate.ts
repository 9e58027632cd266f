import { applyMigrations } from "../lib/db/schema-engine.ts";
import { requireDatabaseUrl } from "./script-env.ts";

const url = requireDatabaseUrl("db:migrate");
const applied = await applyMigrations(url);
console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database is up to date.");
