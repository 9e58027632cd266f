/*
 * Calls the API's route handlers in-process, as Next.js would (decoded path params, a Request), for tests
 * that need thousands of requests without HTTP in between; and validates response bodies against the
 * OpenAPI document, so "well-formed" means "what the document promises".
 */
import { SignJWT } from "jose";
import { afterAll, beforeAll, inject } from "vitest";
import { resetEnvCache } from "../../platform/env/env.ts";
import { MALFORMED_PATH_HEADER, repairPercentEncoding } from "../../platform/http/request-stamp.mjs";
import { closeApp } from "./in-process-app.ts";
import { createOpenApiValidator, validationErrors } from "./openapi-validator.ts";

export const KIT_JWT_SECRET = "route-test-kit-secret-route-test-kit";

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;

export interface KitResponse {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** The body as sent (still compressed when the answer is). */
  bytes: Uint8Array;
  json: unknown;
}

export interface RouteKit {
  call(
    method: string,
    pathAndQuery: string,
    options?: { token?: string | null; headers?: Record<string, string> },
  ): Promise<KitResponse>;
  /** The handler's Response itself, its body unread (to read a stream in part, or stop reading). */
  open(
    method: string,
    pathAndQuery: string,
    options?: { token?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  token(sub: string, claims: Record<string, unknown>): Promise<string>;
  /** Validation errors of a 200 body against the operation's OpenAPI schema (empty when valid). */
  validate(operationPath: string, body: unknown): string[];
}

/** A token the kit's route handlers accept (app-issued, valid for 10 minutes). */
export function kitToken(sub: string, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setExpirationTime("10m")
    .sign(new TextEncoder().encode(KIT_JWT_SECRET));
}

/**
 * A test file's route kit on the integration run's database: made before the file's tests (use it in tests and
 * later hooks), the app closed after them (closeApp).
 */
export function routeKitForFile(): RouteKit {
  let made: RouteKit | undefined;
  beforeAll(async () => {
    made = await createRouteKit(inject("databaseUrl"));
  });
  afterAll(closeApp);
  const kit = (): RouteKit => {
    if (!made) throw new Error("the route kit is made before the file's tests: use it inside them");
    return made;
  };
  return {
    call: (...args) => kit().call(...args),
    open: (...args) => kit().open(...args),
    token: kitToken,
    validate: (...args) => kit().validate(...args),
  };
}

/** Points the route handlers at `databaseUrl` (demo auth, app-issued JWTs verifiable, no rate limit unless set). */
export async function createRouteKit(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<RouteKit> {
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    AUTH_MODE: "demo",
    AUTH_JWT_SECRET: KIT_JWT_SECRET,
    RATE_LIMIT_MAX: "0",
    LOG_LEVEL: "silent",
    ...env,
  });
  delete process.env.REDIS_URL;
  resetEnvCache();

  const [search, profile, transactions, exportRoute, audit, catchAll, { buildOpenApiDocument }] =
    await Promise.all([
      import("../../app/api/v1/players/route.ts") as unknown as Promise<RouteModule>,
      import("../../app/api/v1/players/[playerId]/route.ts") as unknown as Promise<RouteModule>,
      import("../../app/api/v1/players/[playerId]/transactions/route.ts") as unknown as Promise<RouteModule>,
      import(
        "../../app/api/v1/players/[playerId]/transactions/export/route.ts"
      ) as unknown as Promise<RouteModule>,
      import("../../app/api/v1/players/[playerId]/audit/route.ts") as unknown as Promise<RouteModule>,
      import("../../app/api/[...path]/route.ts") as unknown as Promise<RouteModule>,
      import("../../features/api-docs/document.ts"),
    ]);
  // The other player reads and the whole audit trail, keyed by the path segment after the player id.
  const [facets, totals, activity, summary, auditLog, changes, profilesExport, bulk] = await Promise.all([
    import(
      "../../app/api/v1/players/[playerId]/transaction-facets/route.ts"
    ) as unknown as Promise<RouteModule>,
    import(
      "../../app/api/v1/players/[playerId]/transaction-totals/route.ts"
    ) as unknown as Promise<RouteModule>,
    import(
      "../../app/api/v1/players/[playerId]/monthly-activity/route.ts"
    ) as unknown as Promise<RouteModule>,
    import("../../app/api/v1/players/[playerId]/summary/route.ts") as unknown as Promise<RouteModule>,
    import("../../app/api/v1/audit/route.ts") as unknown as Promise<RouteModule>,
    import("../../app/api/v1/changes/route.ts") as unknown as Promise<RouteModule>,
    import("../../app/api/v1/exports/players/route.ts") as unknown as Promise<RouteModule>,
    import("../../app/api/v1/transactions/route.ts") as unknown as Promise<RouteModule>,
  ]);
  const playerReads: Record<string, RouteModule> = {
    transactions,
    audit,
    "transaction-facets": facets,
    "transaction-totals": totals,
    "monthly-activity": activity,
    summary,
  };

  const openapi = createOpenApiValidator(buildOpenApiDocument());

  function route(pathname: string): { module: RouteModule; params: Record<string, string> } {
    const parts = pathname.split("/").slice(1).map(decodeURIComponent);
    const [api, v1, players, playerId, sub, ...rest] = parts;
    if (api === "api" && v1 === "v1" && players === "players" && playerId && sub === "transactions") {
      if (rest.length === 1 && rest[0] === "export") return { module: exportRoute, params: { playerId } };
    }
    if (api === "api" && v1 === "v1" && players === "audit" && playerId === undefined) {
      return { module: auditLog, params: {} };
    }
    if (api === "api" && v1 === "v1" && players === "changes" && playerId === undefined) {
      return { module: changes, params: {} };
    }
    if (api === "api" && v1 === "v1" && players === "transactions" && playerId === undefined) {
      return { module: bulk, params: {} };
    }
    if (
      api === "api" &&
      v1 === "v1" &&
      players === "exports" &&
      playerId === "players" &&
      sub === undefined
    ) {
      return { module: profilesExport, params: {} };
    }
    if (api === "api" && v1 === "v1" && players === "players" && rest.length === 0) {
      if (playerId === undefined) return { module: search, params: {} };
      if (playerId !== "" && sub === undefined) return { module: profile, params: { playerId } };
      const read = sub === undefined ? undefined : Object.hasOwn(playerReads, sub) && playerReads[sub];
      if (playerId !== "" && read) return { module: read, params: { playerId } };
    }
    return { module: catchAll, params: { path: parts.slice(1).join("/") } };
  }

  async function open(
    method: string,
    pathAndQuery: string,
    options: { token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    // What the server's request stamp does before Next.js routes the request.
    const repaired = repairPercentEncoding(pathAndQuery);
    const url = new URL(repaired ?? pathAndQuery, "http://localhost");
    const headers: Record<string, string> = { "x-session-id": "route-kit", ...options.headers };
    if (repaired !== null) headers[MALFORMED_PATH_HEADER] = "1";
    const token = options.token === undefined ? "demo-token" : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const { module, params } = route(url.pathname);
    const handler = module[method as keyof RouteModule];
    const request = new Request(url, { method, headers });
    return handler
      ? await handler(request, { params: Promise.resolve(params) })
      : new Response(null, { status: 405 });
  }

  return {
    open,
    async call(method, pathAndQuery, options = {}) {
      const response = await open(method, pathAndQuery, options);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      const contentType = response.headers.get("content-type") ?? "";
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, contentType, text, bytes, json };
    },

    token: kitToken,

    validate(operationPath, body) {
      return validationErrors(openapi.response(operationPath), body);
    },
  };
}
