/* npx tsx tools/docs-asyncapi.ts: writes docs/asyncapi.json from the zod schemas (features/api-docs/asyncapi.ts). */
import { writeFileSync } from "node:fs";
import { buildAsyncApiDocument } from "@/features/api-docs/asyncapi";

writeFileSync("docs/asyncapi.json", `${JSON.stringify(buildAsyncApiDocument(), null, 2)}\n`);
console.log("docs/asyncapi.json written");
