export interface TrustedProxies {
  readonly entries: readonly string[];
  trusts(address: string | null): boolean;
}
export const NO_TRUSTED_PROXIES: TrustedProxies;
export function parseProxyEntry(
  entry: string,
): { address: string; family: "ipv4" | "ipv6"; prefix: number | null } | null;
export function invalidProxyEntries(value: string | undefined): string[];
export function parseTrustedProxies(value: string | undefined): TrustedProxies;
