import { ApiReference } from "@scalar/nextjs-api-reference";
import { readOnlyMethods, withApi } from "@/lib/http/api-handler";

/** Interactive reference for the OpenAPI document. */
const reference = ApiReference({
  url: "/api/v1/openapi.json",
  pageTitle: "Player Account Read Service — API reference",
});

export const GET = withApi(async () => reference(), { auth: false });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = readOnlyMethods();
