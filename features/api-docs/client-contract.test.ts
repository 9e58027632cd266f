import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/features/api-docs/document";
import { generateClientTypes } from "@/test/support/openapi-client-types";

/*
 * What the document tells a generated client (issue 41): X-Session-ID declared optional on every operation (a
 * typed client sets it in a middleware) while saying every request must carry it; `Link` declared on the 200 of
 * every paged read; ChangeKind an open enum (`x-extensible-enum`) that generators still type as its literals.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: { description?: string };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema?: SchemaObject }> }
  >;
}

interface SchemaObject {
  $ref?: string;
  properties?: Record<string, unknown>;
  enum?: string[];
  description?: string;
  "x-extensible-enum"?: string[];
}

const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, SchemaObject>;
  };
  tags: { name: string; description: string }[];
};
const operations = Object.values(document.paths).flatMap((item) => Object.values(item));

describe("X-Session-ID in the document", () => {
  it("is declared on every operation, not required, and says every request must carry it", () => {
    expect(operations.length).toBeGreaterThan(10);
    for (const operation of operations) {
      const header = operation.parameters?.find((p) => p.in === "header" && p.name === "X-Session-ID");
      expect(header, operation.operationId).toBeDefined();
      expect(header?.required ?? false, operation.operationId).toBe(false);
      const text = header?.description ?? header?.schema?.description ?? "";
      expect(text, operation.operationId).toContain("Every request must carry it");
      expect(text, operation.operationId).toContain("400");
    }
  });
});

describe("Link in the document", () => {
  const paged = [
    "listPlayerTransactions",
    "searchPlayers",
    "listPlayerAuditEvents",
    "listAuditLog",
    "listChanges",
    "listWebhookEvents",
    "listTransactions",
  ];

  it.each(paged)("%s declares Link on its 200", (id) => {
    const operation = operations.find((o) => o.operationId === id);
    expect(operation?.responses["200"]?.headers).toHaveProperty("Link");
  });

  it("every operation whose answer says has_more is in that list", () => {
    const pagedByShape = operations
      .filter((o) => {
        const body = o.responses["200"]?.content?.["application/json"]?.schema;
        const ref = typeof body?.$ref === "string" ? body.$ref.split("/").at(-1) : undefined;
        const schema = ref ? document.components.schemas[ref] : body;
        return schema?.properties !== undefined && "has_more" in schema.properties;
      })
      .map((o) => o.operationId);
    expect(pagedByShape.length).toBeGreaterThan(0);
    expect(pagedByShape.filter((id) => !paged.includes(id))).toEqual([]);
  });

  it("no other operation declares it (they are not paged)", () => {
    const others = operations.filter(
      (o) =>
        !paged.includes(o.operationId) &&
        o.responses["200"]?.headers &&
        "Link" in (o.responses["200"].headers ?? {}),
    );
    expect(others.map((o) => o.operationId)).toEqual([]);
  });
});

describe("open enums", () => {
  it("ChangeKind keeps its values, is marked x-extensible-enum and says what to do with an unknown kind", () => {
    const kind = document.components.schemas.ChangeKind;
    expect(kind?.enum).toContain("transaction.created");
    expect(kind?.["x-extensible-enum"]).toEqual(kind?.enum);
    expect(kind?.description).toContain("must not fail on a kind it does not know");
  });

  it("the Webhooks tag says event types may be added and how a receiver treats an unknown one", () => {
    const tag = document.tags.find((t) => t.name === "Webhooks");
    expect(tag?.description).toContain("Event types may be added within v1");
    expect(tag?.description).toContain("answers 2xx and ignores");
  });

  it("openapi-typescript still types ChangeKind as its literals (the mark does not widen it to string)", async () => {
    const types = await generateClientTypes(document);
    const line = /ChangeKind: ([^;]*);/.exec(types)?.[1] ?? "";
    expect(line).toContain('"transaction.created"');
    expect(line).not.toMatch(/\bstring\b/);
  });
});
