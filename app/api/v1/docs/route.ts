import { ApiReference } from "@scalar/nextjs-api-reference";

/** Interactive reference for the OpenAPI document. */
export const GET = ApiReference({
  url: "/api/v1/openapi.json",
  pageTitle: "Player Account Read Service — API reference",
});
