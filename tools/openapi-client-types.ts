/*
 * `npx tsx tools/openapi-client-types.ts`: writes the typed client's types (test/support/openapi-client-types.ts: exact
 * decimals as strings) for the document features/api-docs/document.ts builds, to e2e/api/generated/player-api.ts.
 * Generated, not committed: `npm run typecheck` runs this first, so the types always follow the document.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildOpenApiDocument } from "../features/api-docs/document.ts";
import { generateClientTypes } from "../test/support/openapi-client-types.ts";

const out = path.resolve(import.meta.dirname, "../e2e/api/generated/player-api.ts");
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, await generateClientTypes(buildOpenApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), out)}`);
