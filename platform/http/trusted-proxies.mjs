import { BlockList, isIP } from "node:net";

/*
 * TRUSTED_PROXIES: the addresses (or CIDR networks) of the reverse proxies in front of the app, e.g.
 * `127.0.0.2` or `10.0.0.0/8, fd00::/8`. One setting decides who may speak for the client:
 *
 * - the client address (client-address.ts, the audit trail and rate limits): X-Forwarded-For is read from the
 *   right only while each hop is one of these proxies, so a client can never choose its address by writing
 *   the header itself, nor by reaching an instance directly;
 * - next-auth's host handling (request-stamp.mjs): X-Forwarded-Host is kept only on a connection from one of
 *   these proxies.
 *
 * Empty (the default): nobody is trusted, the TCP peer is the client. Plain JavaScript: the request stamp, loaded
 * before Next.js, uses it too.
 */

/**
 * @typedef {{ readonly entries: readonly string[], trusts(address: string | null): boolean }} TrustedProxies
 * `address` must already be normalized (client-address.ts normalizeAddress): an IPv4-mapped IPv6 address is
 * compared as the IPv4 address it maps.
 */

/** @type {TrustedProxies} */
export const NO_TRUSTED_PROXIES = Object.freeze({ entries: Object.freeze([]), trusts: () => false });

/**
 * One entry ("192.0.2.1", "10.0.0.0/8", "fd00::/8") → what a BlockList needs; null when it is not one.
 * @param {string} entry
 * @returns {{ address: string, family: "ipv4" | "ipv6", prefix: number | null } | null}
 */
export function parseProxyEntry(entry) {
  const [address = "", prefixText, ...rest] = entry.trim().split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const family = version === 4 ? "ipv4" : "ipv6";
  if (prefixText === undefined) return { address, family, prefix: null };
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= (version === 4 ? 32 : 128))) return null;
  return { address, family, prefix };
}

/**
 * The entries of a TRUSTED_PROXIES value that are not addresses or networks (for the start-up refusal).
 * @param {string | undefined} value
 * @returns {string[]}
 */
export function invalidProxyEntries(value) {
  return splitEntries(value).filter((entry) => parseProxyEntry(entry) === null);
}

/** @param {string | undefined} value */
function splitEntries(value) {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The matcher of a TRUSTED_PROXIES value. Entries that do not parse are left out (the server refuses to start on
 * them anyway, platform/env/env.ts): a typo trusts nobody rather than everybody.
 * @param {string | undefined} value
 * @returns {TrustedProxies}
 */
export function parseTrustedProxies(value) {
  const entries = splitEntries(value).filter((entry) => parseProxyEntry(entry) !== null);
  if (entries.length === 0) return NO_TRUSTED_PROXIES;
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = /** @type {NonNullable<ReturnType<typeof parseProxyEntry>>} */ (parseProxyEntry(entry));
    if (parsed.prefix === null) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return Object.freeze({
    entries: Object.freeze(entries),
    /** @param {string | null} address */
    trusts(address) {
      if (!address) return false;
      const version = isIP(address);
      return version !== 0 && list.check(address, version === 4 ? "ipv4" : "ipv6");
    },
  });
}
