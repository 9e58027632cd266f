import { constants, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, exportEncoding, gzipChunks } from "./gzip-stream.ts";

describe("acceptsGzip", () => {
  it("takes gzip named with a non-zero weight, or * when gzip is not named", () => {
    for (const header of [
      "gzip",
      "GZIP",
      "x-gzip",
      "br, gzip;q=0.5",
      "gzip, deflate, br",
      "*",
      "deflate, *;q=0.1",
    ]) {
      expect(acceptsGzip(header), header).toBe(true);
    }
    for (const header of [
      null,
      "",
      "identity",
      "br",
      "deflate",
      "gzip;q=0",
      "gzip;q=0.000",
      "*;q=0",
      "*, gzip;q=0",
    ]) {
      expect(acceptsGzip(header), String(header)).toBe(false);
    }
  });

  it("sets the export's headers for either answer", () => {
    const ask = (accept?: string) =>
      exportEncoding(new Request("http://x/", { headers: accept ? { "accept-encoding": accept } : {} }));
    expect(ask("gzip")).toEqual({
      gzip: true,
      headers: {
        "Cache-Control": "no-store, no-transform",
        Vary: "Accept-Encoding",
        "Content-Encoding": "gzip",
      },
    });
    expect(ask()).toEqual({
      gzip: false,
      headers: { "Cache-Control": "no-store, no-transform", Vary: "Accept-Encoding" },
    });
  });
});

describe("gzipChunks", () => {
  async function* source(parts: string[]) {
    yield* parts;
  }

  it("one gzip stream whose every chunk is flushed: any prefix of whole chunks decompresses to its text", async () => {
    const parts = ["a,b\r\n", "", "1,ä\r\n".repeat(500), "2,€\r\n"];
    const chunks: Uint8Array[] = [];
    for await (const chunk of gzipChunks(source(parts))) chunks.push(chunk);
    expect(gunzipSync(Buffer.concat(chunks)).toString("utf8")).toBe(parts.join(""));
    for (let n = 1; n < chunks.length; n++) {
      const prefix = gunzipSync(Buffer.concat(chunks.slice(0, n)), { finishFlush: constants.Z_SYNC_FLUSH });
      expect(parts.join("").startsWith(prefix.toString("utf8"))).toBe(true);
      expect(prefix.length).toBeGreaterThan(0);
    }
  });

  it("closing it early closes the source", async () => {
    let closed = false;
    async function* endless() {
      try {
        for (;;) yield "line\n";
      } finally {
        closed = true;
      }
    }
    const gz = gzipChunks(endless());
    await gz.next();
    await gz.return(undefined);
    expect(closed).toBe(true);
  });
});
