import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/features/api-docs/document";
import {
  WEBHOOK_DECIMALS,
  WEBHOOK_EVENT_TYPES,
  webhookEventSchema,
  webhookPingSchema,
} from "@/features/webhook-events/schema/webhook-payloads";
import { parseWire } from "@/platform/client/wire-codec";
import { ExactNumber } from "@/platform/schemas/exact-number";

describe("the OpenAPI document's webhooks", () => {
  const document = buildOpenApiDocument() as {
    webhooks?: Record<
      string,
      { post: { requestBody: { content: Record<string, { examples: Record<string, { value: unknown }> }> } } }
    >;
  };

  it("has one entry per event type and the ping, each with the signature headers and a schema reference", () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES, "ping"].sort());
    const text = JSON.stringify(document.webhooks);
    for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"])
      expect(text).toContain(header);
  });

  it.each(WEBHOOK_EVENT_TYPES)("the %s example is a valid body of its type", (type) => {
    const example =
      document.webhooks?.[type]?.post.requestBody.content["application/json"]?.examples.example?.value;
    const parsed = webhookEventSchema.parse(
      parseWire(JSON.stringify(example), WEBHOOK_DECIMALS, (d) => new ExactNumber(d)),
    );
    expect(parsed.type).toBe(type);
  });

  it("the ping example is a valid ping", () => {
    const example =
      document.webhooks?.ping?.post.requestBody.content["application/json"]?.examples.example?.value;
    expect(webhookPingSchema.parse(example).type).toBe("ping");
  });
});
