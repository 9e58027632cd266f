/*
 * Writes lib/client/wire-decimals.ts: where each response the pages read has its exact decimals, derived from
 * the response schemas (lib/schemas/wire-schemas.ts). The browser gets this small table instead of the zod
 * schemas; lib/schemas/decimal-tree.test.ts fails when it is stale. Run: npx tsx tools/wire-decimals.ts
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { wireDecimalsSource } from "../lib/schemas/wire-decimals-source.ts";

const target = new URL("../lib/client/wire-decimals.ts", import.meta.url);
const path = fileURLToPath(target);
writeFileSync(path, wireDecimalsSource());
// The table is written as one line per response; Biome lays it out as the rest of the code.
execFileSync("npx", ["biome", "format", "--write", path], { stdio: "inherit" });
console.log(`wrote ${path}`);
