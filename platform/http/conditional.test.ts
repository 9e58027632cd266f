import { describe, expect, it } from "vitest";
import { conditionalRead, entityTag, ifNoneMatchHits } from "./conditional.ts";
import { jsonResponse } from "./responses.ts";

const get = (headers: Record<string, string> = {}) => new Request("http://x/api/v1/players/P1", { headers });

describe("entity tags", () => {
  it("are weak, and equal for equal bodies only", () => {
    expect(entityTag("{}")).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
    expect(entityTag('{"a":1}')).toBe(entityTag('{"a":1}'));
    expect(entityTag('{"a":1}')).not.toBe(entityTag('{"a":2}'));
  });

  it("match If-None-Match weakly, in a list, or by *", () => {
    const tag = entityTag("x");
    const opaque = tag.slice(2);
    expect(ifNoneMatchHits(tag, tag)).toBe(true);
    expect(ifNoneMatchHits(opaque, tag)).toBe(true);
    expect(ifNoneMatchHits(`W/"other", ${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits("*", tag)).toBe(true);
    expect(ifNoneMatchHits('W/"other"', tag)).toBe(false);
    expect(ifNoneMatchHits("", tag)).toBe(false);
    expect(ifNoneMatchHits(null, tag)).toBe(false);
  });
});

describe("conditionalRead", () => {
  it("tags a JSON 200 and makes it private, no-store", () => {
    const res = conditionalRead(get(), jsonResponse({ id: "P1" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(entityTag('{"id":"P1"}'));
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("answers 304 without a body for a current copy", async () => {
    const tag = entityTag('{"id":"P1"}');
    const res = conditionalRead(get({ "if-none-match": tag }), jsonResponse({ id: "P1" }));
    expect(res.status).toBe(304);
    expect(res.headers.get("etag")).toBe(tag);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.text()).toBe("");
  });

  it("leaves problems, other statuses and non-JSON bodies alone", () => {
    const text = conditionalRead(get(), new Response("a,b", { headers: { "Cache-Control": "no-store" } }));
    expect(text.headers.get("etag")).toBeNull();
    expect(text.headers.get("cache-control")).toBe("no-store");
    const created = conditionalRead(get(), jsonResponse({}, { status: 201 }));
    expect(created.headers.get("etag")).toBeNull();
  });
});
