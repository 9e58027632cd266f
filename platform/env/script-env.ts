import { z } from "zod";
import { log } from "../log/log.ts";

/** The settings of the one-shot scripts (db:migrate, db:seed, webhooks): only the database they work on. */
const scriptSettings = z.object({ DATABASE_URL: z.string().optional() });

/** Every setting those scripts read (docs/configuration.md lists each with the process `scripts`). */
export const SCRIPT_SETTINGS = Object.keys(
  scriptSettings.shape,
) as readonly (keyof typeof scriptSettings.shape)[];

/** Scripts that write to a server need an explicit target; the embedded database is managed by scripts/serve.mjs. */
export function requireDatabaseUrl(script: string): string {
  const url = scriptSettings.parse(process.env).DATABASE_URL;
  if (!url) {
    console.error(
      `${script}: set DATABASE_URL (e.g. postgresql://postgres@127.0.0.1:5432/postgres). ` +
        "The embedded database is migrated and seeded automatically by `npm run dev` / `npm start`.",
    );
    process.exit(2);
  }
  return url;
}

/** A long-running script's settings, or their problems printed and exit 2 (a configuration error). */
export function settingsOrExit<T>(parse: (env: NodeJS.ProcessEnv) => T): T {
  try {
    return parse(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

/**
 * A long-running script's clean stop: the first SIGTERM or SIGINT is logged as `<name>: <signal>: <finishing>`,
 * `finish` runs (its figures go into the `<name>: stopped` line) and the process exits 0.
 */
export function stopOnSignal(
  name: string,
  finishing: string,
  finish: () => Promise<Record<string, unknown>>,
): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${name}: ${signal}: ${finishing}`, {});
    void (async () => {
      log.info(`${name}: stopped`, await finish());
      process.exit(0);
    })();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
