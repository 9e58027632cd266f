import { describe, expect, it } from "vitest";
import { subjectNameFromClaims } from "./subject-name.ts";

describe("subjectNameFromClaims", () => {
  it("takes the token's name, else its preferred_username", () => {
    expect(subjectNameFromClaims({ sub: "u1", name: "Sarah Mitchell", preferred_username: "sarah" })).toBe(
      "Sarah Mitchell",
    );
    expect(subjectNameFromClaims({ sub: "u1", preferred_username: "sarah.m" })).toBe("sarah.m");
    expect(subjectNameFromClaims({ sub: "u1", name: "  ", preferred_username: " sarah " })).toBe("sarah");
  });

  it("is null when the token names nobody or is not verified", () => {
    expect(subjectNameFromClaims({ sub: "client-7" })).toBeNull();
    expect(subjectNameFromClaims({ sub: "c", name: 42 })).toBeNull();
    expect(subjectNameFromClaims(null)).toBeNull();
  });

  it("caps a very long name", () => {
    expect(subjectNameFromClaims({ name: "x".repeat(5_000) })).toHaveLength(200);
  });
});
