import { describe, expect, it } from "vitest";
import { undecodablePathResponse } from "./undecodable-path.ts";

const at = (path: string) => new Request(`http://localhost${path}`, { headers: { "X-Request-ID": "r-1" } });

describe("undecodablePathResponse", () => {
  it("lets paths through that decode, encoded slashes, NULs and unicode included", () => {
    for (const path of [
      "/api/v1/players/P1",
      "/api/v1/players/a%2Fb",
      "/api/v1/players/%00",
      "/api/v1/players/P%C3%BC",
    ]) {
      expect(undecodablePathResponse(at(path)), path).toBeNull();
    }
  });

  it("answers malformed percent-encoding with a 400 problem naming the path", async () => {
    for (const path of [
      "/api/v1/players/%E0%A4%A",
      "/api/%ZZ",
      "/api/v1/players/%/transactions",
      "/api/v1/players/%C0%80",
    ]) {
      const res = undecodablePathResponse(at(path));
      expect(res?.status, path).toBe(400);
      expect(res?.headers.get("content-type")).toBe("application/problem+json");
      expect(res?.headers.get("x-request-id")).toBe("r-1");
      const body = await res?.json();
      expect(body.errors).toEqual([
        { name: "path", in: "path", detail: "is not valid percent-encoded UTF-8" },
      ]);
    }
  });
});
