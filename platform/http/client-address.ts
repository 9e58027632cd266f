import { isIP } from "node:net";
import { getEnv } from "@/platform/env/env";
import { isRequestStampInstalled, PEER_ADDRESS_HEADER } from "./request-stamp.mjs";
import { parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.mjs";

/*
 * The caller's address keys rate limits for unauthenticated callers and is recorded in the audit trail,
 * so a client must not be able to choose it: the peer address comes from the server's own stamp
 * (request-stamp.ts), and X-Forwarded-For entries are believed only from the proxies TRUSTED_PROXIES names
 * (trusted-proxies.mjs), hop by hop from the right.
 */

/** "::ffff:10.0.0.1" → "10.0.0.1"; "[::1]:443" / "10.0.0.1:80" → the address; garbage → null. */
export function normalizeAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  if (value.toLowerCase().startsWith("::ffff:") && isIP(value.slice(7)) === 4) value = value.slice(7);
  return isIP(value) ? value.toLowerCase() : null;
}

/** Peers come back request after request: their normalized form is remembered (the server's own stamp, bounded). */
const normalizedPeers = new Map<string, string | null>();

function normalizePeer(raw: string): string | null {
  let normalized = normalizedPeers.get(raw);
  if (normalized === undefined) {
    if (normalizedPeers.size >= 1_024) normalizedPeers.clear();
    normalized = normalizeAddress(raw);
    normalizedPeers.set(raw, normalized);
  }
  return normalized;
}

let configured: { value: string; proxies: TrustedProxies } | undefined;

/** The proxies of TRUSTED_PROXIES, parsed once per value. */
export function configuredTrustedProxies(): TrustedProxies {
  const value = getEnv().TRUSTED_PROXIES;
  if (configured?.value !== value) configured = { value, proxies: parseTrustedProxies(value) };
  return configured.proxies;
}

/**
 * The client's address: the peer of the TCP connection; when the peer is a trusted proxy, the X-Forwarded-For
 * entry it appended, and so on leftwards while each hop is itself a trusted proxy. The first address that is not
 * one is the client: entries further left are its own writing and ignored. A garbage entry stops the walk at the
 * last proxy. null when unknown.
 */
export function clientAddress(
  headers: Headers,
  proxies: TrustedProxies = configuredTrustedProxies(),
  peerStamped = isRequestStampInstalled(),
): string | null {
  const xForwardedFor = headers.get("x-forwarded-for");
  // No proxy chain to read (none sent, or none trusted): the stamped peer alone, as the walk below would find.
  if (peerStamped && (proxies.entries.length === 0 || !xForwardedFor)) {
    return normalizePeer(headers.get(PEER_ADDRESS_HEADER) ?? "");
  }
  const forwarded = (xForwardedFor ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // Without the stamp (not running under the app's server), Next's own X-Forwarded-For (set to the peer
  // when absent) is the best available; its last entry plays the peer.
  const peer = peerStamped ? headers.get(PEER_ADDRESS_HEADER) : (forwarded.pop() ?? null);
  let address = normalizePeer(peer ?? "");
  while (address !== null && forwarded.length > 0 && proxies.trusts(address)) {
    const next = normalizeAddress(forwarded.pop() ?? "");
    if (next === null) break;
    address = next;
  }
  return address;
}

/** "2001:db8::1" → the eight 16-bit groups, expanded; null if not IPv6. */
function ipv6Groups(address: string): string[] | null {
  let a = address.toLowerCase().replace(/%.*$/, "");
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head = "", tail] = a.split("::");
  const h = head ? head.split(":") : [];
  const t = tail === undefined ? null : tail ? tail.split(":") : [];
  const groups = t === null ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return groups.length === 8 ? groups.map((g) => g.padStart(4, "0")) : null;
}

/**
 * The rate-limit key for an address: IPv4 as is; IPv6 by its /64 network, because one client usually
 * holds a whole /64 and could otherwise take a fresh address for every request.
 */
export function addressRateKey(address: string | null): string {
  if (!address) return "ip:unknown";
  if (isIP(address) !== 6) return `ip:${address}`;
  const groups = ipv6Groups(address);
  return groups ? `ip6:${groups.slice(0, 4).join(":")}::/64` : `ip:${address}`;
}
