import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  COMPILED_SCRIPTS,
  compiledScriptsDir,
  compiledScriptsPresent,
  scriptArguments,
} from "./compiled-scripts.mjs";

const ROOT = "/srv/app";
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the launcher's steps", () => {
  it("npm start runs the compiled file with plain node: no loader, nothing from tsx", () => {
    expect(scriptArguments("start", "serve-prepare", ROOT, {})).toEqual([
      "/srv/app/.next/scripts/serve-prepare.mjs",
    ]);
  });

  it("npm run dev runs the source through tsx, with nothing to build first", () => {
    expect(scriptArguments("dev", "serve-embedded", ROOT, {})).toEqual([
      "--import",
      "tsx",
      "/srv/app/scripts/serve-embedded.ts",
    ]);
  });

  it("the compiled files belong to the build folder NEXT_DIST_DIR names, as next.config.mjs reads it", () => {
    expect(compiledScriptsDir(ROOT, { NEXT_DIST_DIR: ".next-wt" })).toBe("/srv/app/.next-wt/scripts");
    expect(scriptArguments("start", "ingest", ROOT, { NEXT_DIST_DIR: ".next-wt" })).toEqual([
      "/srv/app/.next-wt/scripts/ingest.mjs",
    ]);
  });

  it("a build is complete only with every compiled script (`next build` alone leaves none)", () => {
    const root = mkdtempSync(path.join(tmpdir(), "compiled-scripts-"));
    dirs.push(root);
    expect(compiledScriptsPresent(root, {})).toBe(false);
    mkdirSync(compiledScriptsDir(root, {}), { recursive: true });
    const [last, ...others] = [...COMPILED_SCRIPTS].reverse();
    for (const name of others) writeFileSync(path.join(compiledScriptsDir(root, {}), `${name}.mjs`), "");
    expect(compiledScriptsPresent(root, {})).toBe(false);
    writeFileSync(path.join(compiledScriptsDir(root, {}), `${last}.mjs`), "");
    expect(compiledScriptsPresent(root, {})).toBe(true);
  });
});
