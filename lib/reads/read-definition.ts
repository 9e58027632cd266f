import type { z } from "zod";
import type { ApiPrincipal } from "@/lib/auth/api-auth";
import type { Scope } from "@/lib/auth/scopes";
import type { AuditedRead } from "@/lib/http/api-context";
import type { NextPage } from "@/lib/http/next-link";
import { parsePathParam, parseQuery } from "@/lib/http/query";

/** What a read runs on: its parsed path and query, and who asks (for masking and "my" lists). */
export interface ReadInput<P, Q> {
  params: P;
  query: Q;
  principal: ApiPrincipal;
}

/** A read's answer as the server holds it (ExactNumber money), and the audit rows it declares. */
export interface ReadResult<B> {
  body: B;
  /** One row, or one per player the answer holds (a batch read; none when it holds no player). */
  audit: AuditedRead | readonly AuditedRead[];
}

/**
 * One read of the API, defined once for both of its callers: the route handler (`readRoute(definition)`,
 * lib/http/api-handler.ts) and server rendering (`createServerCaller`, server-caller.ts). Each caller brings its
 * own admission (a bearer token or the page's sign-in session); the definition holds everything else: the
 * schemas its input is parsed with (a 400 problem naming each parameter), the scope it needs, what it reads,
 * how it masks, and what it records in the audit trail.
 */
export interface ReadDefinition<P extends Record<string, string>, Q, B> {
  /** The scope the read needs; `players:read` by default. */
  scope?: Scope;
  /** Each path parameter's schema. */
  params: { [K in keyof P]: z.ZodType<P[K]> };
  /** The query string's schema (strict: an unknown parameter is a 400). */
  query: z.ZodType<Q>;
  /** A named function (`run: async function playerProfileRead(…)`), so that CPU profiles show the read. */
  run(input: ReadInput<P, Q>): Promise<ReadResult<B>>;
  /**
   * A paged read: the query parameters its next page changes, from the answer (and the query it answered), or
   * null on the last page. The route sends it as `Link: <…>; rel="next"` (lib/http/next-link.ts).
   */
  next?(body: B, query: Q): NextPage;
}

/** Identity, for inference: `defineRead({ … })` types `run`'s input from the schemas. */
export function defineRead<P extends Record<string, string>, Q, B>(
  definition: ReadDefinition<P, Q, B>,
): ReadDefinition<P, Q, B> {
  return definition;
}

/** The definition's path parameters and query string, parsed by its schemas (throws a 400 problem). */
export function parseReadInput<P extends Record<string, string>, Q>(
  definition: ReadDefinition<P, Q, unknown>,
  rawParams: Record<string, string>,
  searchParams: URLSearchParams,
): { params: P; query: Q } {
  const params = {} as P;
  for (const name of Object.keys(definition.params) as (keyof P & string)[]) {
    params[name] = parsePathParam(definition.params[name], name, rawParams[name] ?? "");
  }
  return { params, query: parseQuery(definition.query, searchParams) };
}
