import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { DEMO_CREDENTIALS } from "./demo-credentials.ts";
import { DEMO_USERS, verifyDemoCredentials } from "./demo-users.ts";
import { ROLES } from "./roles.ts";

describe("demo users", () => {
  it("has one account per role, and the published credentials sign in to it", async () => {
    expect(DEMO_CREDENTIALS.map((c) => c.role).sort()).toEqual([...ROLES].sort());
    // No account beyond the published ones.
    expect(DEMO_USERS.map((u) => u.username).sort()).toEqual(DEMO_CREDENTIALS.map((c) => c.username).sort());
    for (const { username, password, role } of DEMO_CREDENTIALS) {
      const user = await verifyDemoCredentials(username, password);
      expect(user, username).toMatchObject({ role });
      expect(user).not.toHaveProperty("passwordHash");
    }
  });

  it("takes usernames case-insensitively, passwords exactly", async () => {
    const [first] = DEMO_CREDENTIALS;
    if (!first) throw new Error("no demo account");
    expect(await verifyDemoCredentials(` ${first.username.toUpperCase()} `, first.password)).not.toBeNull();
    expect(await verifyDemoCredentials(first.username, first.password.toUpperCase())).toBeNull();
  });

  it("rejects wrong, unknown, empty and non-string credentials", async () => {
    const [first, second] = DEMO_CREDENTIALS;
    if (!first || !second) throw new Error("no demo accounts");
    expect(await verifyDemoCredentials(first.username, second.password)).toBeNull();
    expect(await verifyDemoCredentials("nobody", first.password)).toBeNull();
    expect(await verifyDemoCredentials(first.username, "")).toBeNull();
    expect(await verifyDemoCredentials(undefined, undefined)).toBeNull();
    expect(await verifyDemoCredentials(first.username, ["x"])).toBeNull();
  });

  it("verifies passwords off the event loop: the loop stays idle while eight verifications run", async () => {
    const [first] = DEMO_CREDENTIALS;
    if (!first) throw new Error("no demo account");
    // The event loop's utilization (active time over active + idle) while the hashes run. In libuv's thread pool
    // the loop waits, idle, for them; hashing on the main thread (bcryptjs, even its async API) keeps it busy
    // (utilization near 1). Unlike a wall-clock stall, this does not grow when the machine is loaded: a loop
    // waiting in epoll counts as idle however long the wait.
    const before = performance.eventLoopUtilization();
    await Promise.all(Array.from({ length: 8 }, () => verifyDemoCredentials(first.username, "wrong")));
    const { utilization } = performance.eventLoopUtilization(before);
    expect(utilization).toBeLessThan(0.5);
  });
});
