import { scalarBundle } from "@/features/api-docs/api-reference";
import { readRoute } from "@/platform/http/api-handler";

/** The pinned Scalar browser bundle for the API reference page; cached for good under its content version. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function apiReferenceScriptRoute({ url }) {
    const { body, version } = await scalarBundle();
    const current = url.searchParams.get("v") === version;
    return new Response(body, {
      headers: {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": current ? "public, max-age=31536000, immutable" : "no-cache",
      },
    });
  },
  { auth: false },
);
