import type { JWTHeaderParameters, JWTPayload } from "jose";

/*
 * An ID token says who signed in to a client; it is not a credential for an API. An identity provider signs both
 * with the same keys, and some put the API in an ID token's `aud` too, so the audience alone cannot tell them
 * apart: the token's own shape must. RFC 9068 access tokens say what they are (`typ: at+jwt`).
 */

/** Header types of access tokens: RFC 9068's, and plain `JWT` (or none) as most providers and callers send. */
const ACCESS_TOKEN_TYPES = new Set(["jwt", "at+jwt"]);

/** Claims only an ID token carries (OpenID Connect Core 2, 3.1.3.6, 3.3.2.11; FAPI's s_hash). */
const ID_TOKEN_CLAIMS = ["nonce", "at_hash", "c_hash", "s_hash"] as const;

/** The header's `typ` in lower case without an `application/` prefix (RFC 7515 4.1.9), or undefined. */
function mediaType(header: JWTHeaderParameters): string | undefined {
  return typeof header.typ === "string" ? header.typ.toLowerCase().replace(/^application\//, "") : undefined;
}

/**
 * Why this verified token is not an access token (an ID token, a logout token, …), or null when it may be one.
 * `auth_time` alone is allowed in an access token (RFC 9068 2.2.1), but not without a `scope` outside `at+jwt`.
 */
export function notAnAccessToken(header: JWTHeaderParameters, claims: JWTPayload): string | null {
  const type = mediaType(header);
  if (type !== undefined && !ACCESS_TOKEN_TYPES.has(type)) {
    // Not echoed: the detail goes into WWW-Authenticate, which takes no characters beyond Latin-1.
    return "The token's type (its `typ` header) is not that of an access token.";
  }
  const idClaim = ID_TOKEN_CLAIMS.find((name) => claims[name] !== undefined);
  if (idClaim) return `The token carries \`${idClaim}\`: it is an ID token, not an access token.`;
  // Keycloak marks its ID tokens in the payload.
  if (typeof claims.typ === "string" && claims.typ.toLowerCase() === "id") {
    return "The token says it is an ID token (`typ: ID`), not an access token.";
  }
  if (claims.auth_time !== undefined && claims.scope === undefined && type !== "at+jwt") {
    return "The token carries `auth_time` without a `scope`: it is an ID token, not an access token.";
  }
  return null;
}

/** RFC 9068's header type, which the tokens this app issues carry. */
export const ACCESS_TOKEN_TYPE = "at+jwt";

/**
 * RFC 9068's `client_id` in the tokens the back office mints for its signed-in users: an HS* token carrying it is
 * good only while the sign-in session it names (`sid`) is (platform/auth/api-auth.ts).
 */
export const BACK_OFFICE_CLIENT_ID = "player-account-back-office";
