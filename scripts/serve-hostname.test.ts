import { describe, expect, it } from "vitest";
import { LOOPBACK, listenArguments } from "./serve-hostname.mjs";

describe("where npm start listens", () => {
  it("demo mode without LISTEN_HOST: 127.0.0.1, and says so", () => {
    const { args, notice } = listenArguments({ AUTH_MODE: "demo" }, ["--port", "3000"]);
    expect(args).toEqual(["--port", "3000", "--hostname", LOOPBACK]);
    expect(notice).toContain("127.0.0.1 only");
    expect(notice).toContain("LISTEN_HOST");
  });

  it("demo mode ignores HOSTNAME, which containers set to their own (reachable) name, and says so", () => {
    const { args, notice } = listenArguments({ AUTH_MODE: "demo", HOSTNAME: "3f2a9c1e7b4d" }, []);
    expect(args).toEqual(["--hostname", LOOPBACK]);
    expect(notice).toContain("HOSTNAME (3f2a9c1e7b4d) is not used");
  });

  it("demo mode listens elsewhere only when LISTEN_HOST says so, and warns", () => {
    const { args, notice } = listenArguments({ AUTH_MODE: "demo", LISTEN_HOST: "0.0.0.0" }, []);
    expect(args).toEqual(["--hostname", "0.0.0.0"]);
    expect(notice).toMatch(/^Demo mode listens on 0\.0\.0\.0 \(LISTEN_HOST\): whoever reaches it/);
    expect(listenArguments({ AUTH_MODE: "demo", LISTEN_HOST: "::1" }, []).notice).toBe(
      "Listening on LISTEN_HOST=::1.",
    );
  });

  it("an explicit -H / --hostname wins, and is warned about in demo mode off loopback", () => {
    expect(listenArguments({ AUTH_MODE: "demo" }, ["-H", "::1"])).toEqual({ args: ["-H", "::1"] });
    expect(listenArguments({ AUTH_MODE: "demo" }, ["--hostname=::1"]).args).toEqual(["--hostname=::1"]);
    const wide = listenArguments({ AUTH_MODE: "demo", LISTEN_HOST: "127.0.0.1" }, ["--hostname", "0.0.0.0"]);
    expect(wide.args).toEqual(["--hostname", "0.0.0.0"]);
    expect(wide.notice).toContain("0.0.0.0 (--hostname)");
  });

  it("outside demo mode Next.js's default stands (every interface) unless LISTEN_HOST is set", () => {
    expect(listenArguments({ AUTH_MODE: "jwt", HOSTNAME: "container-id" }, ["--port", "1"])).toEqual({
      args: ["--port", "1"],
    });
    expect(listenArguments({ AUTH_MODE: "jwt", LISTEN_HOST: "10.0.0.5" }, [])).toEqual({
      args: ["--hostname", "10.0.0.5"],
      notice: "Listening on LISTEN_HOST=10.0.0.5.",
    });
  });
});
