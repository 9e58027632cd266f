import openapiTS, { type OpenAPI3 } from "openapi-typescript";

/*
 * The typed-client recipe's first half (docs/integrations.md, Exact money): TypeScript types generated from the
 * served OpenAPI document with openapi-typescript, exact decimals (`format: decimal`) typed as `string`, the
 * digits a lossless parse keeps (exact-client.ts in e2e/api is the second half). `tools/openapi-client-types.ts`
 * writes them to e2e/api/generated/player-api.ts (before `npm run typecheck` checks the spec against them);
 * e2e/api/typed-client.spec.ts generates them again from the running server's document.
 */
export function generateClientTypes(document: object): Promise<string> {
  return openapiTS(document as OpenAPI3, {
    transform: (schema) => (schema.format === "decimal" ? "string" : undefined),
  });
}

/** The property names the document marks `format: decimal`: the fields a lossless parse keeps as strings. */
export function decimalFields(document: object): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        const v = value as { format?: string; anyOf?: { format?: string }[] } | null;
        const decimal = v?.format === "decimal" || v?.anyOf?.some((b) => b?.format === "decimal");
        if (decimal && key !== "items") names.add(key);
        walk(value);
      }
    }
  };
  walk((document as { components?: unknown; paths?: unknown }).components);
  walk((document as { paths?: unknown }).paths);
  return names;
}
