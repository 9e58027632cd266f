import { buildOpenApiDocument } from "@/lib/openapi/document";

let cached: string | undefined;

export function GET(): Response {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return new Response(cached, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
