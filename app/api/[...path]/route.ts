import { rejectMalformedPath } from "@/platform/http/api-handler";
import { newRequestId } from "@/platform/http/request-id";
import { problemResponse } from "@/platform/http/responses";
import { ApiError, notFound } from "@/platform/problems/problem";

export const dynamic = "force-dynamic";

/** Any other /api path: a problem+json 404 instead of the HTML not-found page. */
async function handler(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  let problem = notFound(`There is no API resource at ${path}.`);
  try {
    rejectMalformedPath(request);
  } catch (error) {
    if (error instanceof ApiError) problem = error;
  }
  return problemResponse(problem, newRequestId(), path);
}

export {
  handler as GET,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as OPTIONS,
};
