import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildAsyncApiDocument } from "./asyncapi.ts";

describe("the AsyncAPI document of the wallet's events", () => {
  const doc = buildAsyncApiDocument();

  it("is what docs/asyncapi.json holds (regenerate with npx tsx tools/docs-asyncapi.ts)", () => {
    const file = readFileSync(path.join(import.meta.dirname, "../../docs/asyncapi.json"), "utf8");
    expect(JSON.parse(file)).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("describes the payloads from the zod schemas: exact amount, all four states, version", () => {
    const schemas = doc.components.schemas as Record<
      string,
      { properties?: Record<string, unknown>; required?: string[] }
    >;
    const tx = schemas.WalletTransactionEvent;
    expect(tx?.required).toEqual(expect.arrayContaining(["id", "player_id", "amount", "status", "version"]));
    expect(tx?.properties?.amount).toMatchObject({ type: "number" });
    expect(JSON.stringify(tx?.properties?.status)).toContain("cancelled");
    expect(schemas.WalletPlayerEvent?.required).toEqual(
      expect.arrayContaining(["id", "version", "settings"]),
    );
    // Every $ref points at something in the document.
    const text = JSON.stringify(doc);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      let node: unknown = doc;
      for (const part of (ref ?? "").split("/")) node = (node as Record<string, unknown>)[part];
      expect(node, ref).toBeDefined();
    }
  });
});
