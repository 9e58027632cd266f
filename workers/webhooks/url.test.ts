import { describe, expect, it } from "vitest";
import { checkWebhookUrl } from "./url.ts";

describe("checkWebhookUrl", () => {
  it("accepts absolute http and https URLs", () => {
    for (const u of ["https://risk.example.com/hooks", "http://127.0.0.1:4671/in?x=1"])
      expect(checkWebhookUrl(u).ok).toBe(true);
  });

  it.each([
    ["ftp://risk.example.com/", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
    ["javascript:alert(1)", /only http and https/],
    ["/relative/path", /not an absolute URL/],
    ["https://user:pw@risk.example.com/", /credentials/],
    ["https://risk.example.com/#frag", /fragment/],
    [`https://risk.example.com/${"a".repeat(2_001)}`, /longer than/],
  ])("refuses %s", (url, reason) => {
    const check = checkWebhookUrl(url);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });
});
