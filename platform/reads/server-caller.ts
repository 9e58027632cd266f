import "server-only";
import { type ApiPrincipal, DEMO_PRINCIPAL } from "@/platform/auth/api-auth";
import { liveSession } from "@/platform/auth/live-session";
import { hasScope, SCOPES, scopeClaimForRoles, scopesForRoles } from "@/platform/auth/scopes";
import type { SessionState } from "@/platform/auth/session-store";
import type { DecimalTree } from "@/platform/client/wire-codec";
import { getEnv } from "@/platform/env/env";
import { chargeQuota } from "@/platform/http/admission";
import type { AuditedRead } from "@/platform/http/api-context";
import {
  assertAuditable,
  auditRecord,
  commitAuditRecords,
  type ReadOrigin,
} from "@/platform/http/audited-read";
import { clientAddress } from "@/platform/http/client-address";
import { newRequestId } from "@/platform/http/request-id";
import { insufficientScope, unauthorized } from "@/platform/problems/problem";
import { parseReadInput, type ReadDefinition } from "./read-definition.ts";
import { onReadDatabase } from "./run-read.ts";
import { toWireShape } from "./wire-shape.ts";

/** Who a server render reads for: the page's signed-in user and the request that asked for the page. */
export interface ServerCallerOptions {
  /** The page's sign-in session (`sid`): the X-Session-ID the browser sends. */
  sessionId: string;
  /** The user's name, recorded in the audit trail as an access token's `name` claim is. */
  name?: string | null;
  /** The page request's headers: the client's address, for the audit trail and the rate limit. */
  headers: Headers;
}

/** One read: the path parameters and the query string exactly as the browser's client would send them. */
export interface ServerReadInput {
  params: Record<string, string>;
  query?: URLSearchParams;
}

export interface ServerCaller {
  /**
   * Runs `read` for the signed-in user and answers its body in the browser's wire shape (`W`: a type of
   * platform/client/wire.ts; `decimals`: its entry in platform/client/wire-decimals.ts, as the browser's `apiGet` is given).
   * Throws what the route would answer as a problem (400, 403, 404, 429, 503).
   */
  read<W>(
    read: ReadDefinition<Record<string, string>, unknown, unknown>,
    input: ServerReadInput,
    decimals: DecimalTree,
  ): Promise<W>;
}

/**
 * Server rendering's caller of the API's reads (t3's `createCaller`): the same read definitions as the route
 * handlers (features/<name>/reads), without a token, a Request or JSON text. It admits the page's user as the API admits
 * the access token the browser gets from /api/session/token (the live sign-in session, its role → scopes,
 * the rate limit), and records each read in the audit trail as the route does: the same operation, filters
 * (the query string as sent), scopes, subject and session, committed before the body is handed back; a read
 * that cannot be recorded fails with the route's 503.
 */
export async function createServerCaller(options: ServerCallerOptions): Promise<ServerCaller> {
  const session = await liveSession(options.sessionId);
  if (!session) throw unauthorized({ detail: "The sign-in session has ended; sign in again." });
  const principal = sessionPrincipal(session, options.name);
  const address = clientAddress(options.headers);
  return {
    async read<W>(
      read: ReadDefinition<Record<string, string>, unknown, unknown>,
      input: ServerReadInput,
      decimals: DecimalTree,
    ) {
      const query = input.query ?? new URLSearchParams();
      await chargeQuota(principal, address);
      const needed = read.scope ?? SCOPES.playersRead;
      if (!hasScope(principal, needed)) throw insufficientScope(needed);
      const parsed = parseReadInput(read, input.params, query);
      const result = await onReadDatabase(read.database, (db) => read.run({ ...parsed, principal, db }));
      if (result.audit === null) return toWireShape(result.body, decimals) as W;
      assertAuditable();
      const origin: ReadOrigin = {
        url: { pathname: "", searchParams: query },
        requestId: newRequestId(),
        clientRequestId: null,
        address,
      };
      const reads = Array.isArray(result.audit) ? result.audit : [result.audit as AuditedRead];
      await commitAuditRecords(reads.map((read) => auditRecord(origin, principal, read)));
      return toWireShape(result.body, decimals) as W;
    },
  };
}

/**
 * The principal the API makes of the access token this session would be issued (platform/auth/access-token.ts):
 * its subject, session, role and the role's scopes, `name` as the token carries it. In demo mode without a
 * secret or a JWKS to verify that token by, the API reads it as any demo token (DEMO_SCOPES): so does this.
 */
function sessionPrincipal(session: SessionState, name: string | null | undefined): ApiPrincipal {
  const env = getEnv();
  if (env.AUTH_MODE === "demo" && !env.AUTH_JWT_SECRET && !env.AUTH_JWKS_URL) {
    return { ...DEMO_PRINCIPAL, sessionId: session.id };
  }
  const roles = session.role ? [session.role] : [];
  return {
    subject: session.subject,
    sessionId: session.id,
    mode: env.AUTH_MODE,
    claims: {
      sub: session.subject,
      sid: session.id,
      name: name ?? undefined,
      role: session.role ?? undefined,
      scope: scopeClaimForRoles(roles),
    },
    verified: true,
    scopes: scopesForRoles(roles),
    roles,
  };
}
