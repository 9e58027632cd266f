import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressRateKey, clientAddress, normalizeAddress } from "./client-address.ts";
import { PEER_ADDRESS_HEADER, repairPercentEncoding } from "./request-stamp.mjs";

const headers = (h: Record<string, string>) => new Headers(h);

describe("client address", () => {
  it("uses the stamped peer address and ignores a client-written X-Forwarded-For by default", () => {
    const h = headers({ [PEER_ADDRESS_HEADER]: "::ffff:10.1.2.3", "x-forwarded-for": "6.6.6.6" });
    expect(clientAddress(h, 0, true)).toBe("10.1.2.3");
  });

  it("believes X-Forwarded-For only as many hops back as there are trusted proxies", () => {
    const h = headers({
      [PEER_ADDRESS_HEADER]: "10.0.0.2",
      "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.1",
    });
    expect(clientAddress(h, 1, true)).toBe("10.0.0.1");
    expect(clientAddress(h, 2, true)).toBe("198.51.100.7");
    expect(clientAddress(h, 3, true)).toBe("6.6.6.6");
    expect(clientAddress(h, 9, true)).toBe("6.6.6.6");
  });

  it("skips garbage entries towards the trusted end", () => {
    const h = headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2", "x-forwarded-for": "<script>, not-an-ip" });
    expect(clientAddress(h, 2, true)).toBe("10.0.0.2");
    expect(clientAddress(headers({}), 0, true)).toBeNull();
  });

  it("with trusted proxies but no X-Forwarded-For, is the peer, however often it is asked", () => {
    for (let i = 0; i < 3; i++) {
      expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "::FFFF:10.9.8.7" }), 2, true)).toBe("10.9.8.7");
      expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "[2001:DB8::1]:443" }), 0, true)).toBe(
        "2001:db8::1",
      );
      expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "garbage" }), 1, true)).toBeNull();
    }
  });

  it("without the server's stamp, falls back to the last X-Forwarded-For entry (set by Next.js)", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "127.0.0.1" }), 0, false)).toBe("127.0.0.1");
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "6.6.6.6" }), 0, false)).toBeNull();
  });

  it("normalizes addresses", () => {
    expect(normalizeAddress("[::1]:443")).toBe("::1");
    expect(normalizeAddress("192.0.2.1:8080")).toBe("192.0.2.1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("example.com")).toBeNull();
  });
});

describe("rate-limit keys for addresses", () => {
  it("keys IPv4 by address and IPv6 by /64 network", () => {
    expect(addressRateKey("192.0.2.7")).toBe("ip:192.0.2.7");
    expect(addressRateKey("2001:db8:1:2::1")).toBe("ip6:2001:0db8:0001:0002::/64");
    expect(addressRateKey("2001:db8:1:2:ffff:eeee:dddd:cccc")).toBe(addressRateKey("2001:db8:1:2::9"));
    expect(addressRateKey("2001:db8:1:3::1")).not.toBe(addressRateKey("2001:db8:1:2::1"));
    expect(addressRateKey("::1")).toBe("ip6:0000:0000:0000:0000::/64");
    expect(addressRateKey("::ffff:192.0.2.1")).toBe("ip6:0000:0000:0000:0000::/64");
    expect(addressRateKey(null)).toBe("ip:unknown");
  });
});

describe("percent-encoding repair", () => {
  it("leaves valid paths alone", () => {
    expect(repairPercentEncoding("/api/v1/players/P%C3%BC1?q=%ZZ")).toBeNull();
  });

  it("escapes stray % in malformed segments only, keeping the query", () => {
    expect(repairPercentEncoding("/api/v1/players/%ZZ/transactions?limit=5")).toBe(
      "/api/v1/players/%25ZZ/transactions?limit=5",
    );
    expect(repairPercentEncoding("/api/v1/players/%C0%AF")).toBe("/api/v1/players/%25C0%25AF");
  });

  it("always yields a path every segment of which decodes", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 5 }), (parts) => {
        const url = `/${parts.join("/")}`;
        const repaired = repairPercentEncoding(url) ?? url;
        for (const segment of repaired.split(/[?#]/)[0]?.split("/") ?? []) {
          expect(() => decodeURIComponent(segment)).not.toThrow();
        }
      }),
      { numRuns: 500 },
    );
  }, 30_000);
});
