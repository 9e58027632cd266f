/*
 * Builds and describes the start of the benchmark's floor app (this folder): `next start` with the product's
 * production start settings (scripts/next-start-settings.mjs: heap cap, malloc arenas, keep-alive timeout).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { productionStartArgs, productionStartEnv } from "../../../scripts/next-start-settings.mjs";

export const FLOOR_APP_DIR = fileURLToPath(new URL(".", import.meta.url));
const nextBin = () => createRequire(import.meta.url).resolve("next/dist/bin/next");

/** The newest modification time (ms) among the floor's sources and the Prisma client it bundles. */
function newestSource(): number {
  const generated = fileURLToPath(new URL("../../../platform/db/generated", import.meta.url));
  const entries = [
    ...readdirSync(FLOOR_APP_DIR, { recursive: true, encoding: "utf8" })
      .filter((f) => !f.startsWith(".next") && /\.(ts|mjs|json)$/.test(f))
      .map((f) => path.join(FLOOR_APP_DIR, f)),
    ...readdirSync(generated).map((f) => path.join(generated, f)),
  ];
  return Math.max(...entries.map((f) => statSync(f).mtimeMs));
}

/** When the floor app's build is missing or older than its sources: null when it is current. */
function staleBuild(): string | null {
  const buildId = path.join(FLOOR_APP_DIR, ".next", "BUILD_ID");
  let built: number;
  try {
    built = statSync(buildId).mtimeMs;
  } catch {
    return "no build yet";
  }
  return newestSource() > built ? "sources changed since the last build" : null;
}

/** `next build` of the floor app (into its own .next, git-ignored) when forced, missing or stale. */
export function ensureFloorBuild(force: boolean, say: (line: string) => void): void {
  const why = force ? "--build" : staleBuild();
  if (!why) return;
  say(`building the floor app (next build ${path.relative(process.cwd(), FLOOR_APP_DIR)}: ${why}) …`);
  const { status } = spawnSync(process.execPath, [nextBin(), "build", FLOOR_APP_DIR], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (status !== 0) throw new Error(`next build of the floor app failed (exit ${status})`);
}

/** The floor server's command line and environment, as `npm start` runs the product. */
export function floorStartCommand(
  port: number,
  databaseUrl: string,
): { args: string[]; env: NodeJS.ProcessEnv } {
  const args = [
    nextBin(),
    "start",
    FLOOR_APP_DIR,
    ...productionStartArgs(["--port", String(port), "--hostname", "127.0.0.1"]),
  ];
  return {
    args,
    env: productionStartEnv({ ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: databaseUrl }),
  };
}
