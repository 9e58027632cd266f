import { describe, expect, it } from "vitest";
import { DEFAULT_DURATION_SECONDS, DEFAULT_ROUNDS, parseBenchArgs } from "./args.ts";
import { SCENARIO_NAMES } from "./scenarios.ts";

const URL = "postgresql://postgres@127.0.0.1:5432/pbench_x";

describe("parseBenchArgs", () => {
  it("takes the database from DATABASE_URL and defaults the rest", () => {
    const args = parseBenchArgs([], { DATABASE_URL: URL });
    expect(args).toEqual({
      databaseUrl: URL,
      durationSeconds: DEFAULT_DURATION_SECONDS,
      rounds: DEFAULT_ROUNDS,
      scenarios: [...SCENARIO_NAMES],
      build: false,
      productPort: 3340,
      baselinePort: 3341,
      floorPort: 3342,
    });
  });

  it("prefers --database-url over the environment and accepts --flag=value", () => {
    const args = parseBenchArgs(
      ["--database-url=postgresql://other/db", "--duration", "3", "--out", "x.md", "--build"],
      {
        DATABASE_URL: URL,
      },
    );
    expect(args.databaseUrl).toBe("postgresql://other/db");
    expect(args.durationSeconds).toBe(3);
    expect(args.out).toBe("x.md");
    expect(args.build).toBe(true);
  });

  it("keeps the canonical scenario order whatever order they are given in", () => {
    const args = parseBenchArgs(["--scenarios", "export-csv, profile"], { DATABASE_URL: URL });
    expect(args.scenarios).toEqual(["profile", "export-csv"]);
  });

  it("refuses unknown scenarios, flags, missing values and a missing database", () => {
    const env = { DATABASE_URL: URL };
    expect(() => parseBenchArgs(["--scenarios", "profile,nope"], env)).toThrow(/unknown nope/);
    expect(() => parseBenchArgs(["--fast"], env)).toThrow(/unknown argument: --fast/);
    expect(() => parseBenchArgs(["--duration"], env)).toThrow(/--duration needs a value/);
    expect(() => parseBenchArgs(["--duration", "0"], env)).toThrow(/between 1 and 600/);
    expect(() => parseBenchArgs(["--duration", "abc"], env)).toThrow(/between 1 and 600/);
    expect(() => parseBenchArgs(["--rounds", "0"], env)).toThrow(/--rounds: a whole number between 1 and 50/);
    expect(() => parseBenchArgs(["--rounds", "2.5"], env)).toThrow(/--rounds/);
    expect(parseBenchArgs(["--rounds", "5"], env).rounds).toBe(5);
    expect(() => parseBenchArgs([], {})).toThrow(/DATABASE_URL/);
  });

  it("checks ports and keeps product and baseline apart", () => {
    const env = { DATABASE_URL: URL };
    expect(parseBenchArgs(["--port", "3350"], env)).toMatchObject({ productPort: 3350, baselinePort: 3341 });
    expect(parseBenchArgs(["--port", "3341"], env)).toMatchObject({ productPort: 3341, baselinePort: 3342 });
    expect(() => parseBenchArgs(["--port", "70000"], env)).toThrow(/not a port/);
    expect(() => parseBenchArgs(["--port", "3345", "--baseline-port", "3345"], env)).toThrow(/must differ/);
  });

  it("puts the floor app on the port after the other two unless --floor-port is given", () => {
    const env = { DATABASE_URL: URL };
    expect(parseBenchArgs(["--port", "3640", "--baseline-port", "3641"], env).floorPort).toBe(3642);
    expect(parseBenchArgs(["--port", "3650", "--baseline-port", "3641"], env).floorPort).toBe(3651);
    expect(parseBenchArgs(["--port", "3640", "--floor-port", "3699"], env).floorPort).toBe(3699);
    expect(() => parseBenchArgs(["--port", "3640", "--floor-port", "3640"], env)).toThrow(
      /--floor-port must differ/,
    );
  });
});
