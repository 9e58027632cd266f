import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signWebhook, webhookHeaders } from "./signature.ts";

describe("Standard Webhooks signing", () => {
  // The specification's published test vector: any Standard Webhooks library verifies our deliveries.
  const vector = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
  };

  it("reproduces the specification's reference signature", () => {
    expect(signWebhook(vector)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(webhookHeaders(vector)).toEqual({
      "webhook-id": vector.id,
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });

  it("during a rotation, sends both signatures space-separated, the new secret's first", () => {
    const previous = generateWebhookSecret();
    const headers = webhookHeaders({ ...vector, previousSecret: previous });
    expect(headers["webhook-signature"]).toBe(
      `v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= ${signWebhook({ ...vector, secret: previous })}`,
    );
    expect(webhookHeaders({ ...vector, previousSecret: null })).toEqual(webhookHeaders(vector));
  });

  it("changes with the body, the id, the timestamp and the secret", () => {
    const base = signWebhook(vector);
    expect(signWebhook({ ...vector, body: '{"test": 2432232315}' })).not.toBe(base);
    expect(signWebhook({ ...vector, id: "msg_other" })).not.toBe(base);
    expect(signWebhook({ ...vector, timestamp: vector.timestamp + 1 })).not.toBe(base);
    expect(signWebhook({ ...vector, secret: generateWebhookSecret() })).not.toBe(base);
  });

  it("generates distinct 32-byte secrets with the whsec_ prefix", () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});
