import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyGetKey,
  errors as joseErrors,
  jwtVerify,
} from "jose";
import { type Env, getEnv } from "@/platform/env/env";
import { ApiError, invalidParameters, serviceUnavailable, unauthorized } from "@/platform/problems/problem";
import { DEMO_SCOPES, type Role, rolesFromClaims, type Scope, scopesFromClaims } from "./scopes.ts";
import { isLive, readSession, rolesDue, type SessionState, sessionState } from "./session-store.ts";
import { BACK_OFFICE_CLIENT_ID, notAnAccessToken } from "./token-kind.ts";
import { VerifiedTokenCache } from "./verified-token-cache.ts";

/** 401 invalid_token naming the Authorization header: the token itself is refused. */
const tokenRejected = (detail: string) =>
  unauthorized({
    detail,
    errors: [{ name: "Authorization", in: "header", detail: "token rejected" }],
    invalidToken: true,
  });

export const MAX_SESSION_ID_LENGTH = 128;
const SESSION_ID = /^[\x20-\x7e]+$/;

export interface ApiPrincipal {
  /** Who is calling: a verified token's `sub`, else `demo` (demo mode). */
  subject: string;
  sessionId: string;
  mode: "demo" | "jwt";
  claims: JWTPayload | null;
  /** True when `subject` comes from a verified token (so it can key rate limits and name the caller). */
  verified: boolean;
  scopes: readonly Scope[];
  roles: readonly Role[];
}

/** Any token in demo mode that does not verify as a JWT (the spec's demo deployment), before its session id. */
export const DEMO_PRINCIPAL: Readonly<ApiPrincipal> = Object.freeze({
  subject: "demo",
  sessionId: "",
  mode: "demo",
  claims: null,
  verified: false,
  scopes: DEMO_SCOPES,
  roles: [],
});

/**
 * A verified token's claims → principal; scopes come only from its `scope` and role claims. A token that names
 * its session (`sid`, as the back office's do) is good for that session only, so the audit trail records the
 * real one.
 */
function principalFromClaims(
  claims: JWTPayload,
  sessionId: string,
  mode: ApiPrincipal["mode"],
): ApiPrincipal {
  if (claims.sid !== undefined && claims.sid !== sessionId) {
    throw unauthorized({
      detail: "The X-Session-ID header does not match the session the access token was issued for.",
      errors: [{ name: "X-Session-ID", in: "header", detail: "must equal the token's `sid` claim" }],
      invalidToken: true,
    });
  }
  const { scopes, roles } = grantsOf(claims);
  // verifyJwt let no token without a string `sub` through.
  return { subject: claims.sub as string, sessionId, mode, claims, verified: true, scopes, roles };
}

/** The verified claims of tokens this app minted from a sign-in session (HS*, the back office's client_id). */
const sessionTokens = new WeakSet<JWTPayload>();

/** principalFromClaims, and for a token minted from a sign-in session, that session's check. */
function admit(
  claims: JWTPayload,
  sessionId: string,
  mode: ApiPrincipal["mode"],
): ApiPrincipal | Promise<ApiPrincipal> {
  const principal = principalFromClaims(claims, sessionId, mode);
  if (!sessionTokens.has(claims)) return principal;
  if (typeof claims.sid !== "string") throw tokenRejected("The access token names no sign-in session.");
  const state = sessionState(claims.sid);
  return state instanceof Promise
    ? state.then((s) => judgeSession(s, claims, principal, false))
    : judgeSession(state, claims, principal, false);
}

/**
 * A token minted from a sign-in session is good only while the session is: not revoked (sign-out), not past its
 * absolute expiry, its roles re-read from the provider within AUTH_ROLE_RECHECK_SECONDS and still the token's.
 * The last two are confirmed from the table before a refusal (the cached state may be a few seconds old); the
 * browser answers such a 401 by getting a new token.
 */
function judgeSession(
  state: SessionState | null,
  claims: JWTPayload,
  principal: ApiPrincipal,
  fresh: boolean,
): ApiPrincipal | Promise<ApiPrincipal> {
  if (!isLive(state))
    throw tokenRejected("The sign-in session this token was issued for has ended; sign in again.");
  if (!rolesDue(state) && (state.role ?? undefined) === claims.role) return principal;
  if (!fresh) return readSession(state.id).then((s) => judgeSession(s, claims, principal, true));
  throw tokenRejected("The user's roles have changed or are due to be read again; get a new access token.");
}

/** A cached token's claims are the same (frozen) object on every request: map them to scopes and roles once. */
const grants = new WeakMap<JWTPayload, { scopes: readonly Scope[]; roles: readonly Role[] }>();

function grantsOf(claims: JWTPayload): { scopes: readonly Scope[]; roles: readonly Role[] } {
  let granted = grants.get(claims);
  if (!granted) {
    granted = {
      scopes: Object.freeze(scopesFromClaims(claims)),
      roles: Object.freeze(rolesFromClaims(claims)),
    };
    grants.set(claims, granted);
  }
  return granted;
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/**
 * Authorization: Bearer <token> (scheme case-insensitive) and X-Session-ID are both required: no usable token is
 * a 401; a token admitted without a usable X-Session-ID is a 400 naming the header.
 * demo mode accepts any non-empty token, as the spec's demo deployment does (with the scopes of DEMO_SCOPES);
 * a token that verifies as one this app issued (when a secret or JWKS is configured) is read by its claims
 * instead, so the signed-in UI roles apply in demo mode too. jwt mode verifies signature, expiry, lifetime,
 * issuer and audience (required with a JWKS), that it is an access token with a subject (never an ID token), and
 * grants only the scopes the token carries. Either way a verified token's `sid` must equal X-Session-ID, and a
 * token this app minted from a sign-in session is good only while that session is (judgeSession).
 *
 * Answers at once (no promise) when the token was verified a moment ago: on the request path every promise
 * costs (Node 20 tracks each one for AsyncLocalStorage). Throws synchronously or rejects alike.
 */
export function authenticate(headers: Headers): ApiPrincipal | Promise<ApiPrincipal> {
  const authorization = headers.get("authorization")?.trim() ?? "";
  if (!authorization) {
    throw unauthorized({
      detail: "The Authorization header is missing; send `Authorization: Bearer <token>`.",
      errors: [{ name: "Authorization", in: "header", detail: "is required" }],
    });
  }
  const match = /^bearer\s+(\S+)$/i.exec(authorization);
  if (!match?.[1]) {
    throw unauthorized({
      detail: "The Authorization header must use the Bearer scheme with a non-empty token.",
      errors: [{ name: "Authorization", in: "header", detail: "must be `Bearer <token>`" }],
      invalidToken: true,
    });
  }
  const token = match[1];

  const sessionId = headers.get("x-session-id")?.trim() ?? "";
  const env = getEnv();
  const badSession = sessionIdProblem(sessionId);
  // The token is judged first: a bad one is the 401 it always is; a good one without a usable session id is a
  // 400 naming X-Session-ID (the request is malformed, the credentials are not: retrying with them is right).
  if (badSession) return refuse(admitToken(token, undefined, env), badSession);
  return admitToken(token, sessionId, env);
}

/** The 400 for a missing, blank or malformed X-Session-ID; null for a usable one. */
function sessionIdProblem(sessionId: string): ApiError | null {
  if (!sessionId) return invalidParameters([{ name: "X-Session-ID", in: "header", detail: "is required" }]);
  if (sessionId.length > MAX_SESSION_ID_LENGTH || !SESSION_ID.test(sessionId)) {
    return invalidParameters([
      {
        name: "X-Session-ID",
        in: "header",
        detail: `must be 1–${MAX_SESSION_ID_LENGTH} printable ASCII characters`,
      },
    ]);
  }
  return null;
}

/** Throws `problem` once the token is admitted (a rejected token throws its own 401 first). */
function refuse(admitted: ApiPrincipal | Promise<ApiPrincipal>, problem: ApiError): Promise<never> | never {
  if (admitted instanceof Promise) {
    return admitted.then(() => {
      throw problem;
    });
  }
  throw problem;
}

/**
 * The token's principal for the session id sent; with none (undefined), the token is checked alone: a `sid` it
 * names is taken as sent, so every other check (signature, claims, its sign-in session) still runs.
 */
function admitToken(
  token: string,
  sessionId: string | undefined,
  env: Env,
): ApiPrincipal | Promise<ApiPrincipal> {
  const bind = (claims: JWTPayload, mode: ApiPrincipal["mode"]) =>
    admit(claims, sessionId ?? (claims.sid as string | undefined) ?? "", mode);
  if (env.AUTH_MODE === "demo") {
    const demo: ApiPrincipal = { ...DEMO_PRINCIPAL, sessionId: sessionId ?? "" };
    if (!((env.AUTH_JWT_SECRET || env.AUTH_JWKS_URL) && JWT_SHAPE.test(token))) return demo;
    // A token that verifies is bound to its session like in jwt mode (a mismatch is refused, not downgraded).
    const asDemo = (claims: JWTPayload | null) => (claims ? bind(claims, "demo") : demo);
    const cached = cachedClaims(token);
    return cached ? asDemo(cached) : verifyJwt(token).then(asDemo, () => asDemo(null));
  }
  const cached = cachedClaims(token);
  if (cached) return bind(cached, "jwt");
  return verifyJwt(token).then((claims) => bind(claims, "jwt"));
}

/** Seconds of clock difference tolerated between the token's issuer and this server (exp, nbf, iat). */
const CLOCK_TOLERANCE_SECONDS = 5;

const HMAC_HASHES: Record<string, string> = { HS256: "SHA-256", HS384: "SHA-384", HS512: "SHA-512" };

/**
 * What verifies tokens under one configuration (getEnv() returns a new object when tests change it): the
 * JWKS, the shared secret imported once per HMAC algorithm (jose imports a raw secret again on every call,
 * ~5% of a profile read's CPU), and the tokens verified in the last minute.
 */
interface TokenVerifier {
  jwks?: JWTVerifyGetKey;
  secretKeys: Map<string, Promise<CryptoKey>>;
  verified: VerifiedTokenCache;
}

const verifiers = new WeakMap<Env, TokenVerifier>();

function verifierFor(env: Env): TokenVerifier {
  let verifier = verifiers.get(env);
  if (!verifier) {
    verifier = {
      ...(env.AUTH_JWKS_URL ? { jwks: createRemoteJWKSet(new URL(env.AUTH_JWKS_URL)) } : {}),
      secretKeys: new Map(),
      verified: new VerifiedTokenCache({
        maxEntries: 5_000,
        maxAgeMs: 60_000,
        clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
      }),
    };
    verifiers.set(env, verifier);
  }
  return verifier;
}

/** The shared secret as a key for the token's HMAC algorithm (jose has already checked that it is allowed). */
function secretKey(verifier: TokenVerifier, secret: string): JWTVerifyGetKey {
  return ({ alg }) => {
    const hash = HMAC_HASHES[alg];
    if (!hash) throw new joseErrors.JOSEAlgNotAllowed(`"alg" (Algorithm) Header Parameter value not allowed`);
    let key = verifier.secretKeys.get(alg);
    if (!key) {
      key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash }, false, [
        "verify",
      ]);
      verifier.secretKeys.set(alg, key);
    }
    return key;
  };
}

/**
 * With both a JWKS URL (an identity provider's tokens) and a shared secret (the tokens this app issues
 * to its signed-in users) configured, the token's `alg` chooses: HS* → the secret, anything else → JWKS.
 */
function verificationKey(
  env: Env,
  verifier: TokenVerifier,
  token: string,
): { getKey: JWTVerifyGetKey; symmetric: boolean } {
  if (env.AUTH_JWT_SECRET && (!verifier.jwks || symmetricAlgorithm(token))) {
    return { getKey: secretKey(verifier, env.AUTH_JWT_SECRET), symmetric: true };
  }
  if (verifier.jwks) return { getKey: verifier.jwks, symmetric: false };
  throw new Error("AUTH_MODE=jwt needs AUTH_JWT_SECRET or AUTH_JWKS_URL");
}

function symmetricAlgorithm(token: string): boolean {
  try {
    return /^HS\d+$/.test(String(decodeProtectedHeader(token).alg));
  } catch {
    return false;
  }
}

/** The claims of a token that passed every check a moment ago (VerifiedTokenCache), else undefined. */
function cachedClaims(token: string): JWTPayload | undefined {
  return verifierFor(getEnv()).verified.get(token);
}

async function verifyJwt(token: string): Promise<JWTPayload> {
  const env = getEnv();
  const verifier = verifierFor(env);
  const cached = verifier.verified.get(token);
  if (cached) return cached;
  const { getKey, symmetric } = verificationKey(env, verifier, token);
  const algorithms =
    env.AUTH_JWT_ALGORITHMS?.split(",")
      .map((a) => a.trim())
      .filter(Boolean) ?? (symmetric ? ["HS256", "HS384", "HS512"] : ["RS256", "ES256", "PS256", "EdDSA"]);
  try {
    const { payload, protectedHeader } = await jwtVerify(token, getKey, {
      algorithms,
      issuer: env.AUTH_JWT_ISSUER,
      audience: env.AUTH_JWT_AUDIENCE,
      requiredClaims: ["exp"],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    checkTokenAge(payload, env.AUTH_MAX_TOKEN_LIFETIME_SECONDS);
    checkAccessToken(protectedHeader, payload);
    if (symmetric && payload.client_id === BACK_OFFICE_CLIENT_ID) sessionTokens.add(payload);
    verifier.verified.set(token, payload);
    return payload;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The key set could not be had (issuer down, timeout, not a 200, not a key set): not the caller's fault,
    // and not a bug here. jose reports a non-200 answer with its base JOSEError class.
    const keySetUnavailable =
      error instanceof joseErrors.JWKSTimeout ||
      error instanceof joseErrors.JWKSInvalid ||
      !(error instanceof joseErrors.JOSEError) ||
      error.constructor === joseErrors.JOSEError;
    if (!symmetric && keySetUnavailable) {
      throw serviceUnavailable("The token issuer's key set cannot be fetched; try again shortly.");
    }
    const reason =
      error instanceof joseErrors.JWTExpired
        ? "The access token has expired."
        : error instanceof joseErrors.JWTClaimValidationFailed
          ? `The access token's ${error.claim} claim is not accepted.`
          : error instanceof joseErrors.JOSEError
            ? "The access token is not valid."
            : null;
    if (reason) {
      throw tokenRejected(reason);
    }
    throw error;
  }
}

/**
 * A verified token must name its caller (`sub`, a non-empty string: it keys the rate limit and the audit trail)
 * and be an access token: an ID token the provider issued to the back office is not a credential for the API.
 */
function checkAccessToken(header: JWTHeaderParameters, payload: JWTPayload): void {
  if (typeof payload.sub !== "string" || payload.sub.length === 0) {
    throw tokenRejected("The access token's sub claim is missing or not a non-empty string.");
  }
  const notAccess = notAnAccessToken(header, payload);
  if (notAccess) throw tokenRejected(notAccess);
}

/**
 * A signature and an unexpired `exp` are not enough: a token minted for a year, or dated ahead so that it
 * outlives its stated lifetime, is refused. Lifetime is exp − iat (exp − now without iat).
 */
function checkTokenAge(payload: JWTPayload, maxLifetimeSeconds: number): void {
  const now = Math.floor(Date.now() / 1000);
  if (payload.iat !== undefined && payload.iat > now + CLOCK_TOLERANCE_SECONDS) {
    throw tokenRejected("The access token's iat claim lies in the future.");
  }
  const lifetime = (payload.exp ?? now) - (payload.iat ?? now);
  if (lifetime > maxLifetimeSeconds) {
    throw tokenRejected(
      `The access token's lifetime (${lifetime} s, exp - iat) exceeds the accepted maximum of ${maxLifetimeSeconds} s.`,
    );
  }
}
