import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "./problem.ts";
import { PROBLEM_TYPE_LIST, problemTypeUri, publicOriginOf } from "./problem-types.mjs";

describe("the problem type registry", () => {
  it("has one entry per slug, each with a status, a retry verdict and what to do", () => {
    const slugs = PROBLEM_TYPE_LIST.map((e) => e.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const entry of PROBLEM_TYPE_LIST) {
      expect(entry.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(typeof entry.retryable).toBe("boolean");
      expect(entry.action.length, entry.slug).toBeGreaterThan(10);
    }
    // Every type the API answers with is in the registry.
    expect(slugs).toEqual(expect.arrayContaining(Object.values(PROBLEM_TYPES)));
  });

  it("makes absolute URIs under the public origin", () => {
    expect(problemTypeUri("not-found")).toMatch(/^https?:\/\/[^/]+\/problems\/not-found$/);
    expect(() => problemTypeUri("no-such-type" as "not-found")).toThrow(/Unknown problem type/);
  });

  it("takes PUBLIC_ORIGIN, else NEXTAUTH_URL's origin, else localhost on PORT", () => {
    expect(
      publicOriginOf({ PUBLIC_ORIGIN: "https://players.example.com", NEXTAUTH_URL: "https://x.example" }),
    ).toBe("https://players.example.com");
    expect(publicOriginOf({ NEXTAUTH_URL: "https://back.example.com:8443/app" })).toBe(
      "https://back.example.com:8443",
    );
    expect(publicOriginOf({ PORT: "4000" })).toBe("http://localhost:4000");
    expect(publicOriginOf({})).toBe("http://localhost:3000");
  });
});
