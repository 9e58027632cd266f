import { buildOpenApiDocument } from "@/features/api-docs/document";
import { readRoute } from "@/platform/http/api-handler";

let cached: string | undefined;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function openApiDocumentRoute() {
    cached ??= JSON.stringify(buildOpenApiDocument());
    return new Response(cached, { headers: { "Content-Type": "application/json; charset=utf-8" } });
  },
  { auth: false },
);
