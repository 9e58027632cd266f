/*
 * Deprecation of an operation (docs/versioning.md): an operation opts in with `deprecation` in its ApiOptions
 * (readRoute / withApi), and every answer of it, problems included, carries
 * - `Deprecation: @<unix seconds>` (RFC 9745: a structured-field date, when it was deprecated),
 * - `Sunset: <HTTP-date>` (RFC 8594: when it stops answering), when one is set,
 * - `Link` to its successor (`rel="successor-version"`) and to the policy (`rel="deprecation"`).
 * The OpenAPI document marks the operation `deprecated: true` and names the same dates (operation-parts.ts).
 */

export interface DeprecationPolicy {
  /** When the operation was deprecated (ISO 8601 date or instant). */
  since: string;
  /** When it stops answering; at least 6 months after `since` for v1 (docs/versioning.md). */
  sunset?: string;
  /** The operation to use instead, a path under /api/v1, e.g. `/players/{playerId}`. */
  successor?: string;
}

/** The policy's documentation, linked with `rel="deprecation"`. */
export const DEPRECATION_POLICY_LINK = "/api/v1/docs";

function instant(value: string, name: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`deprecation.${name} is not a date: ${value}`);
  return date;
}

/** The headers every answer of a deprecated operation carries. */
export function deprecationHeaders(policy: DeprecationPolicy): Record<string, string> {
  const since = instant(policy.since, "since");
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(since.getTime() / 1000)}` };
  if (policy.sunset) {
    const sunset = instant(policy.sunset, "sunset");
    if (sunset <= since) throw new RangeError("deprecation.sunset must come after deprecation.since");
    headers.Sunset = sunset.toUTCString();
  }
  const links = [`<${DEPRECATION_POLICY_LINK}>; rel="deprecation"; type="text/html"`];
  if (policy.successor) links.unshift(`</api/v1${policy.successor}>; rel="successor-version"`);
  headers.Link = links.join(", ");
  return headers;
}
