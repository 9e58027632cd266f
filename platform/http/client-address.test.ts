import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/platform/env/env";
import { addressRateKey, clientAddress, normalizeAddress } from "./client-address.ts";
import { PEER_ADDRESS_HEADER, repairPercentEncoding } from "./request-stamp.mjs";
import { invalidProxyEntries, parseTrustedProxies } from "./trusted-proxies.mjs";

const headers = (h: Record<string, string>) => new Headers(h);

const NONE = parseTrustedProxies("");
const PROXY = parseTrustedProxies("10.0.0.2");

describe("client address", () => {
  it("uses the stamped peer address and ignores a client-written X-Forwarded-For by default", () => {
    const h = headers({ [PEER_ADDRESS_HEADER]: "::ffff:10.1.2.3", "x-forwarded-for": "6.6.6.6" });
    expect(clientAddress(h, NONE, true)).toBe("10.1.2.3");
  });

  it("believes X-Forwarded-For only from a trusted proxy: a client reaching the app directly is its peer", () => {
    const forwarded = { "x-forwarded-for": "6.6.6.6" };
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "10.0.0.2", ...forwarded }), PROXY, true)).toBe(
      "6.6.6.6",
    );
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "10.0.0.3", ...forwarded }), PROXY, true)).toBe(
      "10.0.0.3",
    );
    expect(
      clientAddress(headers({ [PEER_ADDRESS_HEADER]: "::ffff:10.0.0.2", ...forwarded }), PROXY, true),
    ).toBe("6.6.6.6");
  });

  it("walks the chain from the right while each hop is a trusted proxy; the first other address is the client", () => {
    const h = headers({
      [PEER_ADDRESS_HEADER]: "10.0.0.2",
      "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.1",
    });
    expect(clientAddress(h, parseTrustedProxies("10.0.0.2"), true)).toBe("10.0.0.1");
    expect(clientAddress(h, parseTrustedProxies("10.0.0.0/8"), true)).toBe("198.51.100.7");
    // Every hop trusted: the leftmost entry, as far as the chain goes.
    expect(clientAddress(h, parseTrustedProxies("10.0.0.0/8, 198.51.100.0/24, 6.6.6.6"), true)).toBe(
      "6.6.6.6",
    );
    // The proxy's own address further left counts for nothing once an untrusted hop was met.
    const spoofed = headers({
      [PEER_ADDRESS_HEADER]: "10.0.0.2",
      "x-forwarded-for": "10.0.0.9, 203.0.113.5",
    });
    expect(clientAddress(spoofed, parseTrustedProxies("10.0.0.0/8"), true)).toBe("203.0.113.5");
  });

  it("stops at the last trusted proxy on a garbage entry", () => {
    const h = headers({
      [PEER_ADDRESS_HEADER]: "10.0.0.2",
      "x-forwarded-for": "198.51.100.7, <script>, not-an-ip",
    });
    expect(clientAddress(h, parseTrustedProxies("10.0.0.0/8"), true)).toBe("10.0.0.2");
    expect(clientAddress(headers({}), NONE, true)).toBeNull();
  });

  it("with trusted proxies but no X-Forwarded-For, is the peer, however often it is asked", () => {
    for (let i = 0; i < 3; i++) {
      expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "::FFFF:10.9.8.7" }), PROXY, true)).toBe(
        "10.9.8.7",
      );
      expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "[2001:DB8::1]:443" }), NONE, true)).toBe(
        "2001:db8::1",
      );
      expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "garbage" }), PROXY, true)).toBeNull();
    }
  });

  it("trusts IPv6 proxies by network", () => {
    const h = headers({ [PEER_ADDRESS_HEADER]: "[fd00::5]:1234", "x-forwarded-for": "2001:db8::7" });
    expect(clientAddress(h, parseTrustedProxies("fd00::/8"), true)).toBe("2001:db8::7");
    expect(clientAddress(h, parseTrustedProxies("fd01::/16"), true)).toBe("fd00::5");
  });

  it("without the server's stamp, falls back to the last X-Forwarded-For entry (set by Next.js)", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "127.0.0.1" }), NONE, false)).toBe("127.0.0.1");
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: "6.6.6.6" }), NONE, false)).toBeNull();
  });

  it("normalizes addresses", () => {
    expect(normalizeAddress("[::1]:443")).toBe("::1");
    expect(normalizeAddress("192.0.2.1:8080")).toBe("192.0.2.1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("example.com")).toBeNull();
  });
});

describe("trusted proxies setting", () => {
  it("parses addresses and CIDR networks, and names what is neither", () => {
    expect(invalidProxyEntries(" 127.0.0.2 , 10.0.0.0/8,fd00::/8 ,, ")).toEqual([]);
    expect(
      invalidProxyEntries("1.2.3.4, proxy.example, 10.0.0.0/33, ::1/129, 1.2.3.4/8/1, 1.2.3.4/-1"),
    ).toEqual(["proxy.example", "10.0.0.0/33", "::1/129", "1.2.3.4/8/1", "1.2.3.4/-1"]);
    expect(parseTrustedProxies("10.0.0.0/8, nonsense").entries).toEqual(["10.0.0.0/8"]);
    expect(parseTrustedProxies("").trusts("127.0.0.1")).toBe(false);
    expect(parseTrustedProxies(undefined).trusts("127.0.0.1")).toBe(false);
    expect(parseTrustedProxies("127.0.0.2").trusts(null)).toBe(false);
  });

  it("is refused at start when an entry is not an address, and TRUST_PROXY is refused with its replacement", () => {
    expect(() => parseEnv({ TRUSTED_PROXIES: "127.0.0.2, proxy.example" })).toThrow(
      /TRUSTED_PROXIES: not an IP address or CIDR network: "proxy.example"/,
    );
    expect(parseEnv({ TRUSTED_PROXIES: "127.0.0.2, 10.0.0.0/8" }).TRUSTED_PROXIES).toBe(
      "127.0.0.2, 10.0.0.0/8",
    );
    expect(parseEnv({}).TRUSTED_PROXIES).toBe("");
    expect(() => parseEnv({ TRUST_PROXY: "1" })).toThrow(/TRUST_PROXY is replaced by TRUSTED_PROXIES/);
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
