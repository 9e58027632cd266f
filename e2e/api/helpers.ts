import { type APIRequestContext, type APIResponse, expect } from "@playwright/test";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { createOpenApiValidator, type OpenApiValidator } from "../../test/support/openapi-validator.ts";

export const AUTH = { Authorization: "Bearer e2e-token", "X-Session-ID": "e2e-session" } as const;

export const get = (request: APIRequestContext, path: string, headers: Record<string, string> = {}) =>
  request.get(path, { headers: { ...AUTH, ...headers }, maxRedirects: 0 });

/* ---- the served OpenAPI document as the validator of every 200 body ---- */

let validatorPromise: Promise<OpenApiValidator> | undefined;

function servedDocumentValidator(request: APIRequestContext): Promise<OpenApiValidator> {
  validatorPromise ??= (async () => {
    const res = await request.get("/api/v1/openapi.json");
    expect(res.status()).toBe(200);
    return createOpenApiValidator(await res.json());
  })();
  return validatorPromise;
}

/** The schema the document gives for this operation's response (path as in the document, e.g. /players/{playerId}). */
export async function responseValidator(
  request: APIRequestContext,
  path: string,
  status: string,
  mediaType = "application/json",
): Promise<ValidateFunction> {
  return (await servedDocumentValidator(request)).response(path, status, mediaType);
}

/** Asserts a 200 JSON body matches the document's schema for that operation; returns the body. */
export async function expectDocumented(
  request: APIRequestContext,
  res: APIResponse,
  path: string,
): Promise<{ [key: string]: unknown }> {
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/json/);
  expect(res.headers()["cache-control"]).toBe("private, no-store");
  expect(res.headers()["x-request-id"]).toBeTruthy();
  const body = await res.json();
  const validate = await responseValidator(request, path, "200");
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  return body;
}

/** Asserts a problem+json response: status, documented shape, request id, names, and no internals. */
export async function expectProblem(
  res: APIResponse,
  status: number,
  names?: string[],
): Promise<{
  type: string;
  title: string;
  status: number;
  detail: string;
  request_id: string;
  errors?: { name: string; in: string; detail: string }[];
}> {
  const text = await res.text();
  expect(res.status(), text).toBe(status);
  expect(res.headers()["content-type"]).toBe("application/problem+json");
  expect(res.headers()["x-request-id"]).toBeTruthy();
  const body = JSON.parse(text);
  expect(body.status).toBe(status);
  expect(body.request_id).toBe(res.headers()["x-request-id"]);
  expect(typeof body.title).toBe("string");
  expect(typeof body.detail).toBe("string");
  expectNoInternals(text);
  if (names)
    expect((body.errors ?? []).map((e: { name: string }) => e.name).sort()).toEqual([...names].sort());
  return body;
}

/** No stack traces, SQL or driver messages ever reach a client. */
export function expectNoInternals(text: string) {
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+/);
  expect(text).not.toMatch(/\bSELECT\b|\bFROM\b|\bWHERE\b|prisma|Prisma|PrismaClient|invocation/);
  // SQLSTATE 22008 as a word: a request id's hex digits may hold "22008" (…e9220080).
  expect(text).not.toMatch(/ECONNREFUSED|postgres|pglite|\b22008\b|violates/i);
}

export const problemValidator = async (request: APIRequestContext) =>
  (await servedDocumentValidator(request)).problem();
