import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_VERSION } from "../features/api-docs/document.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("CHANGELOG", () => {
  it("has a section for the version the OpenAPI document serves", () => {
    const changelog = readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
    const versions = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]);
    expect(versions).toContain(API_VERSION);
    // The newest released section is the served version: a bump comes with its notes, and notes with a bump.
    expect(versions[0]).toBe(API_VERSION);
  });
});
