import { describe, expect, it } from "vitest";
import { LOOPBACK, listenArguments } from "./serve-hostname.mjs";

describe("where npm start listens", () => {
  it("demo mode without HOSTNAME: 127.0.0.1, and says so", () => {
    const { args, notice } = listenArguments({ AUTH_MODE: "demo" }, ["--port", "3000"]);
    expect(args).toEqual(["--port", "3000", "--hostname", LOOPBACK]);
    expect(notice).toContain("127.0.0.1 only");
    expect(notice).toContain("HOSTNAME");
  });

  it("demo mode with HOSTNAME: there, and the notice warns", () => {
    const { args, notice } = listenArguments({ AUTH_MODE: "demo", HOSTNAME: "0.0.0.0" }, []);
    expect(args).toEqual(["--hostname", "0.0.0.0"]);
    expect(notice).toContain("HOSTNAME=0.0.0.0");
  });

  it("an explicit -H / --hostname wins", () => {
    expect(listenArguments({ AUTH_MODE: "demo" }, ["-H", "::1"]).args).toEqual(["-H", "::1"]);
    expect(listenArguments({ AUTH_MODE: "demo" }, ["--hostname=::1"]).args).toEqual(["--hostname=::1"]);
  });

  it("outside demo mode Next.js's default stands", () => {
    expect(listenArguments({ AUTH_MODE: "jwt", HOSTNAME: "container-id" }, ["--port", "1"]).args).toEqual([
      "--port",
      "1",
    ]);
  });
});
