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

  it("verifies passwords off the event loop: other work waits far less than one verification takes", async () => {
    const [first] = DEMO_CREDENTIALS;
    if (!first) throw new Error("no demo account");
    const costs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await verifyDemoCredentials(first.username, first.password);
      costs.push(performance.now() - start);
    }
    const oneVerificationMs = costs.sort((a, b) => a - b)[1] ?? 0;

    // The longest the event loop went without running a 1 ms timer, the batch's end included (a hash that
    // never yields leaves no tick to measure from).
    let lastTick = performance.now();
    let longestStallMs = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestStallMs = Math.max(longestStallMs, now - lastTick);
      lastTick = now;
    }, 1);
    await Promise.all(Array.from({ length: 8 }, () => verifyDemoCredentials(first.username, "wrong")));
    clearInterval(ticker);
    longestStallMs = Math.max(longestStallMs, performance.now() - lastTick);
    // Hashing on the main thread (bcryptjs, even its async API) stalls every other request for one or more
    // verifications; in libuv's thread pool the loop keeps ticking.
    expect(
      longestStallMs,
      `longest stall ${longestStallMs.toFixed(1)} ms, one verification ${oneVerificationMs.toFixed(1)} ms`,
    ).toBeLessThan(oneVerificationMs);
  });
});
