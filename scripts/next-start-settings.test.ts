import { describe, expect, it } from "vitest";
import { productionStartArgs, productionStartEnv } from "./next-start-settings.mjs";

describe("production start settings (npm start and the benchmark's floor app)", () => {
  it("caps the heap and the malloc arenas unless the environment already sets them", () => {
    expect(productionStartEnv({ PATH: "/bin" })).toEqual({
      PATH: "/bin",
      NODE_OPTIONS: "--max-old-space-size=256",
      MALLOC_ARENA_MAX: "2",
    });
    expect(
      productionStartEnv({
        NODE_OPTIONS: "--enable-source-maps --max-old-space-size=512",
        MALLOC_ARENA_MAX: "4",
      }),
    ).toEqual({ NODE_OPTIONS: "--enable-source-maps --max-old-space-size=512", MALLOC_ARENA_MAX: "4" });
    expect(productionStartEnv({ NODE_OPTIONS: "--enable-source-maps" }).NODE_OPTIONS).toBe(
      "--enable-source-maps --max-old-space-size=256",
    );
  });

  it("outlasts clients' keep-alive unless a timeout is given, without changing its input", () => {
    const given = ["--port", "3000"];
    expect(productionStartArgs(given)).toEqual(["--port", "3000", "--keepAliveTimeout", "65000"]);
    expect(given).toEqual(["--port", "3000"]);
    expect(productionStartArgs(["--keepAliveTimeout=1000"])).toEqual(["--keepAliveTimeout=1000"]);
  });
});
