import { apiReferencePage } from "@/features/api-docs/api-reference";
import { readRoute } from "@/platform/http/api-handler";

/** Interactive reference for the OpenAPI document, every script from this origin. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function apiReferenceRoute() {
    return new Response(await apiReferencePage(), {
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
    });
  },
  { auth: false },
);
