import { describe, expect, it } from "vitest";
import { VerifiedTokenCache } from "./verified-token-cache.ts";

const T0 = 1_800_000_000_000;
const cache = (maxEntries = 3) =>
  new VerifiedTokenCache({ maxEntries, maxAgeMs: 60_000, clockToleranceSeconds: 5 });

describe("verified token cache", () => {
  it("answers with the verified claims until its maximum age", () => {
    const c = cache();
    c.set("t", { sub: "a", exp: T0 / 1000 + 3600 }, T0);
    expect(c.get("t", T0 + 59_999)).toMatchObject({ sub: "a" });
    expect(c.get("t", T0 + 60_000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it("never past the token's own exp plus the clock tolerance", () => {
    const c = cache();
    const exp = T0 / 1000 + 10;
    c.set("t", { sub: "a", exp }, T0);
    expect(c.get("t", (exp + 5) * 1000 - 1)).toBeDefined();
    expect(c.get("t", (exp + 5) * 1000)).toBeUndefined();
  });

  it("keeps nothing that is already expired", () => {
    const c = cache();
    c.set("t", { sub: "a", exp: T0 / 1000 - 5 }, T0);
    expect(c.size).toBe(0);
    expect(c.get("t", T0)).toBeUndefined();
  });

  it("matches the whole token string only", () => {
    const c = cache();
    c.set("aaa.bbb.ccc", { sub: "a", exp: T0 / 1000 + 60 }, T0);
    expect(c.get("aaa.bbb.cc", T0)).toBeUndefined();
    expect(c.get("aaa.bbb.ccd", T0)).toBeUndefined();
    expect(c.get("aaa.bbb.ccc ", T0)).toBeUndefined();
  });

  it("drops the oldest entries beyond its size", () => {
    const c = cache(3);
    for (const t of ["1", "2", "3", "4"]) c.set(t, { sub: t, exp: T0 / 1000 + 60 }, T0);
    expect(c.size).toBe(3);
    expect(c.get("1", T0)).toBeUndefined();
    expect(c.get("4", T0)).toMatchObject({ sub: "4" });
  });

  it("hands out claims nobody can change", () => {
    const c = cache();
    c.set("t", { sub: "a", exp: T0 / 1000 + 60, roles: ["support"] }, T0);
    const claims = c.get("t", T0) as { sub: string; roles: string[] };
    expect(() => {
      claims.sub = "admin";
    }).toThrow(TypeError);
    expect(() => claims.roles.push("admin")).toThrow(TypeError);
  });
});
