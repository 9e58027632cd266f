import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The docs the README's "Read on" table links, in its order. */
function readOnLinks(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.split(/^## Read on$/m)[1] ?? "";
  return [...section.matchAll(/^\| \[[^\]]+\]\((docs\/[^)#]+\.md)\)/gm)].map((m) => m[1] as string);
}

describe("README's Read on", () => {
  it("lists every page of docs/, each once", () => {
    const pages = readdirSync(path.join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`)
      .sort();
    const links = readOnLinks();
    expect(links.length).toBeGreaterThan(0);
    expect(new Set(links).size).toBe(links.length);
    expect([...links].sort()).toEqual(pages);
  });
});
