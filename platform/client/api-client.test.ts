import { describe, expect, it } from "vitest";
import { ApiRequestError, readApiResponse } from "./api-client.ts";
import { NO_DECIMALS } from "./wire-codec.ts";

const failure = (response: Response) => readApiResponse(response, NO_DECIMALS).catch((e: unknown) => e);

describe("ApiRequestError from an API answer", () => {
  it("carries every field of a problem+json body, each under its own name", async () => {
    const error = await failure(
      new Response(
        JSON.stringify({
          title: "Invalid request parameters",
          detail: "Parameter 'limit' must be at most 100.",
          request_id: "req-body",
          errors: [{ name: "limit", detail: "must be at most 100" }],
        }),
        {
          status: 400,
          headers: { "content-type": "application/problem+json", "x-request-id": "req-header" },
        },
      ),
    );
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      name: "ApiRequestError",
      message: "Parameter 'limit' must be at most 100.",
      status: 400,
      title: "Invalid request parameters",
      detail: "Parameter 'limit' must be at most 100.",
      requestId: "req-body",
      errors: [{ name: "limit", detail: "must be at most 100" }],
    });
  });

  it("a body that is not JSON falls back to the status line and the header's request id, no errors", async () => {
    const error = await failure(
      new Response("<html>bad gateway</html>", {
        status: 502,
        statusText: "Bad Gateway",
        headers: { "x-request-id": "req-header" },
      }),
    );
    expect(error).toMatchObject({
      status: 502,
      title: "Bad Gateway",
      detail: "The server answered 502.",
      requestId: "req-header",
      errors: [],
    });
  });
});
