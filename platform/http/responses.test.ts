import { describe, expect, it } from "vitest";
import { notFound } from "@/platform/problems/problem";
import { JsonText } from "../schemas/json-text.ts";
import { jsonResponse, problemResponse, WHOLE_BODY_LIMIT, wholeBodyLength } from "./responses.ts";

const encoder = new TextEncoder();

/** How many pieces the body's stream hands out. */
async function pieces(response: Response): Promise<number> {
  let n = 0;
  for await (const _ of response.body as ReadableStream<Uint8Array>) n += 1;
  return n;
}

describe("JSON answers sent whole or streamed", () => {
  it("sends a body under 64 KB whole, with its byte length, also when it was given as pieces", async () => {
    const text = new JsonText<unknown>([encoder.encode('{"name":"Zoé'), encoder.encode(' Côté"}')]);
    const response = jsonResponse(text);
    expect(wholeBodyLength(response)).toBe(encoder.encode('{"name":"Zoé Côté"}').byteLength);
    expect(await pieces(jsonResponse(text))).toBe(1);
    expect(await response.text()).toBe('{"name":"Zoé Côté"}');
    expect(wholeBodyLength(jsonResponse({ id: "P1" }))).toBe(11);
  });

  it("streams a body of 64 KB or more in its pieces, without a length", async () => {
    const piece = encoder.encode(`"${"x".repeat(1022)}",`);
    const parts = [encoder.encode("["), ...Array.from({ length: 64 }, () => piece), encoder.encode("0]")];
    const response = jsonResponse(new JsonText<unknown>(parts));
    expect(parts.reduce((n, p) => n + p.byteLength, 0)).toBeGreaterThanOrEqual(WHOLE_BODY_LIMIT);
    expect(wholeBodyLength(response)).toBeUndefined();
    expect(await pieces(response)).toBe(parts.length);
  });

  it("sends problems whole", async () => {
    const response = problemResponse(notFound("No player P1."), "rid");
    expect(wholeBodyLength(response)).toBe(Buffer.byteLength(await response.text()));
  });
});
