import { afterEach, beforeEach, vi } from "vitest";
import { resetEnvCache } from "../../platform/env/env.ts";

/** Sets environment variables for a test (undefined removes one), and the app reads its environment again. */
export function stubEnv(vars: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  resetEnvCache();
}

/** Puts back every variable stubEnv changed. */
export function restoreEnv(): void {
  vi.unstubAllEnvs();
  resetEnvCache();
}

/** stubEnv before each test of the enclosing describe (or file), restoreEnv after each. */
export function stubEnvForEachTest(vars: Record<string, string | undefined>): void {
  beforeEach(() => stubEnv(vars));
  afterEach(restoreEnv);
}
