import { problemResponse, requestIdFor } from "./api-handler.ts";
import { invalidParameters } from "./problem.ts";

/**
 * A 400 problem for an /api path whose percent-encoding is not valid UTF-8 (`/api/v1/players/%E0%A4%A`),
 * or null when the path decodes. Next's router cannot decode such a path into route params and answers
 * with a bare text/plain 500; proxy.ts calls this first so that the client gets a problem+json 400.
 */
export function undecodablePathResponse(request: Request): Response | null {
  const path = new URL(request.url).pathname;
  try {
    for (const segment of path.split("/")) decodeURIComponent(segment);
    return null;
  } catch {
    return problemResponse(
      invalidParameters([{ name: "path", in: "path", detail: "is not valid percent-encoded UTF-8" }]),
      requestIdFor(request),
      path,
    );
  }
}
