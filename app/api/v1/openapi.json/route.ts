import { readRoute } from "@/lib/http/api-handler";
import { buildOpenApiDocument } from "@/lib/openapi/document";

let cached: string | undefined;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function openApiDocumentRoute() {
    cached ??= JSON.stringify(buildOpenApiDocument());
    return new Response(cached, { headers: { "Content-Type": "application/json; charset=utf-8" } });
  },
  { auth: false },
);
