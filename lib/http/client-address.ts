import { isIP } from "node:net";
import { getEnv } from "@/lib/env";
import { isRequestStampInstalled, PEER_ADDRESS_HEADER } from "./request-stamp.ts";

/*
 * The caller's address keys rate limits for unauthenticated callers and is recorded in the audit trail,
 * so a client must not be able to choose it: the peer address comes from the server's own stamp
 * (request-stamp.ts), and X-Forwarded-For entries are believed only as far as TRUST_PROXY reverse proxies
 * are configured.
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

/**
 * The client's address: the peer of the TCP connection, or, behind `trustedProxies` reverse proxies that
 * each append to X-Forwarded-For, the entry that many hops back. Entries further left are client-written
 * and ignored. null when unknown.
 */
export function clientAddress(
  headers: Headers,
  trustedProxies = getEnv().TRUST_PROXY,
  peerStamped = isRequestStampInstalled(),
): string | null {
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // Without the stamp (not running under the app's server), Next's own X-Forwarded-For (set to the peer
  // when absent) is the best available; its last entry plays the peer.
  const peer = peerStamped ? headers.get(PEER_ADDRESS_HEADER) : (forwarded.pop() ?? null);
  const chain = [...forwarded, peer ?? ""];
  for (let hop = Math.min(trustedProxies, chain.length - 1); hop >= 0; hop--) {
    const candidate = normalizeAddress(chain[chain.length - 1 - hop] ?? "");
    if (candidate) return candidate;
  }
  return null;
}
