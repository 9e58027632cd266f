import { describe, expect, it } from "vitest";
import { repairPercentEncoding } from "./request-stamp.mjs";

describe("repairPercentEncoding", () => {
  it("leaves paths that decode alone, encoded slashes, NULs and unicode included", () => {
    for (const path of [
      "/api/v1/players/P1",
      "/api/v1/players/a%2Fb",
      "/api/v1/players/%00",
      "/api/v1/players/P%C3%BC",
    ]) {
      expect(repairPercentEncoding(path), path).toBeNull();
    }
  });

  it("flags malformed percent-encoding (the API then answers 400 naming the path)", () => {
    for (const path of [
      "/api/v1/players/%E0%A4%A",
      "/api/%ZZ",
      "/api/v1/players/%/transactions",
      "/api/v1/players/%C0%80",
    ]) {
      const repaired = repairPercentEncoding(path);
      expect(repaired, path).not.toBeNull();
      for (const segment of repaired?.split("/") ?? [])
        expect(() => decodeURIComponent(segment)).not.toThrow();
    }
  });
});
