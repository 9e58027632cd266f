import type { z } from "zod";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import type { Scope } from "@/platform/auth/scopes";
import type { PrismaClient } from "@/platform/db/generated/client";
import type { ApiContext, AuditedRead } from "@/platform/http/api-context";
import type { ExportStart } from "@/platform/http/export-response";
import type { NextPage } from "@/platform/http/next-link";
import { parsePathParam, parseQuery } from "@/platform/http/query";

/**
 * What a read runs on: its parsed path and query, who asks (for masking and "my" lists), and the database it
 * reads, chosen by its caller (run-read.ts): the hot standby while it is usable, else the primary. A read
 * never picks its client itself, so none can forget the standby and none reaches it by accident.
 */
export interface ReadInput<P, Q> {
  params: P;
  query: Q;
  principal: ApiPrincipal;
  db: PrismaClient;
}

/** A read's answer as the server holds it (ExactNumber money), and the audit rows it declares. */
export interface ReadResult<B> {
  body: B;
  /**
   * One row, or one per player the answer holds (a batch read; none when it holds no player); null for a read
   * of no player data (the managers' names), which is not audited.
   */
  audit: AuditedRead | readonly AuditedRead[] | null;
}

/**
 * Where a read runs. `routed` (the default): the standby while it streams within the lag bound, else the
 * primary (platform/db/read-router.ts). `primary`: always the primary, for the audit trail's own reads, which must
 * show every record committed so far (docs/scale-out.md).
 */
export type ReadDatabase = "routed" | "primary";

/** What every kind of read declares: the scope it needs, where it runs, and the schemas of its input. */
interface ReadShape<P extends Record<string, string>, Q> {
  /** The scope the read needs; `players:read` by default. */
  scope?: Scope;
  database?: ReadDatabase;
  /** Each path parameter's schema. */
  params: { [K in keyof P]: z.ZodType<P[K]> };
  /** The query string's schema (strict: an unknown parameter is a 400). */
  query: z.ZodType<Q>;
}

/**
 * One JSON read of the API, defined once for both of its callers: the route handler (`readRoute(definition)`,
 * platform/http/api-handler.ts) and server rendering (`createServerCaller`, server-caller.ts). Each caller brings its
 * own admission (a bearer token or the page's sign-in session); the definition holds everything else: the
 * schemas its input is parsed with (a 400 problem naming each parameter), the scope it needs, what it reads,
 * how it masks, and what it records in the audit trail.
 */
export interface ReadDefinition<P extends Record<string, string>, Q, B> extends ReadShape<P, Q> {
  kind?: "json";
  /** A named function (`run: async function playerProfileRead(…)`), so that CPU profiles show the read. */
  run(input: ReadInput<P, Q>): Promise<ReadResult<B>>;
  /**
   * A paged read: the query parameters its next page changes, from the answer (and the query it answered), or
   * null on the last page. The route sends it as `Link: <…>; rel="next"` (platform/http/next-link.ts).
   */
  next?(body: B, query: Q): NextPage;
}

// biome-ignore lint/suspicious/noExplicitAny: a definition of any input and body, as the callers hold them
export type AnyReadDefinition = ReadDefinition<any, any, any>;

/**
 * Several JSON reads at one path, told apart by the query string (GET /players: a search, or with `ids` a batch
 * read). `choose` names the read a request asks for, or throws the 400 that says why none fits.
 */
export interface ReadChoice {
  kind: "choice";
  scope?: Scope;
  choose(searchParams: URLSearchParams): AnyReadDefinition;
}

/** What an export's `begin` gets besides its input: the request, and the audit of each batch as it is sent. */
export interface ExportInput<P, Q> extends ReadInput<P, Q> {
  /** HEAD: the headers alone, no batch read nor audited. */
  head: boolean;
  /** Records a batch at once; resolves when its row is committed, rejects (503) when it cannot be. */
  commitAudit: (read: AuditedRead) => Promise<void>;
}

/**
 * A streamed export (platform/http/export-response.ts): `begin` does every read and audit that can fail, on one
 * database, before the first byte; the lines it hands back stream from that same database.
 */
export interface ExportDefinition<P extends Record<string, string>, Q> extends ReadShape<P, Q> {
  kind: "export";
  begin(input: ExportInput<P, Q>): Promise<ExportStart>;
}

/** What a stream's `open` gets besides its input: the request's own context (its signal, its caller, its audit). */
export interface StreamInput<P, Q> extends ReadInput<P, Q> {
  context: Pick<ApiContext<P>, "request" | "url" | "requestId" | "caller" | "audit">;
}

/**
 * A read that answers with a stream of its own (GET /players/{playerId}/events, server-sent events): `open`
 * checks and audits on the routed database, then answers the stream, which reads nothing more from it.
 */
export interface StreamDefinition<P extends Record<string, string>, Q> extends ReadShape<P, Q> {
  kind: "stream";
  open(input: StreamInput<P, Q>): Promise<Response>;
}

/** Identity, for inference: `defineRead({ … })` types `run`'s input from the schemas. */
export function defineRead<P extends Record<string, string>, Q, B>(
  definition: ReadDefinition<P, Q, B>,
): ReadDefinition<P, Q, B> {
  return definition;
}

/** Identity, for inference: several reads at one path. */
export function defineReadChoice(choice: Omit<ReadChoice, "kind">): ReadChoice {
  return { kind: "choice", ...choice };
}

/** Identity, for inference: a streamed export. */
export function defineExport<P extends Record<string, string>, Q>(
  definition: Omit<ExportDefinition<P, Q>, "kind">,
): ExportDefinition<P, Q> {
  return { kind: "export", ...definition };
}

/** Identity, for inference: a read answered with a stream of its own. */
export function defineStream<P extends Record<string, string>, Q>(
  definition: Omit<StreamDefinition<P, Q>, "kind">,
): StreamDefinition<P, Q> {
  return { kind: "stream", ...definition };
}

/** The definition's path parameters and query string, parsed by its schemas (throws a 400 problem). */
export function parseReadInput<P extends Record<string, string>, Q>(
  definition: ReadShape<P, Q>,
  rawParams: Record<string, string>,
  searchParams: URLSearchParams,
): { params: P; query: Q } {
  const params = {} as P;
  for (const name of Object.keys(definition.params) as (keyof P & string)[]) {
    params[name] = parsePathParam(definition.params[name], name, rawParams[name] ?? "");
  }
  return { params, query: parseQuery(definition.query, searchParams) };
}
