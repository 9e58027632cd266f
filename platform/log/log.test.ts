import { spawn } from "node:child_process";
import { Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLogger, log, MASKS, MAX_LOGGED_TEXT, scrubText } from "./log.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

function captureAt(level: string) {
  const { lines, stream } = capture();
  return { lines, logger: createLogger(stream, level) };
}

describe("structured logging", () => {
  it("writes JSON lines with a string level, an ISO time and the fields", () => {
    const { lines, logger } = captureAt("debug");
    logger.info({ requestId: "r1", route: "/api/v1/players/P1", status: 200, durationMs: 3 }, "request");
    expect(lines[0]).toMatchObject({ level: "info", msg: "request", requestId: "r1", status: 200 });
    expect(String(lines[0]?.time)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("redacts secrets and contact data by key, also nested", () => {
    const { lines, logger } = captureAt("debug");
    logger.warn(
      {
        authorization: "Bearer abc.def.ghi",
        headers: { authorization: "Bearer x", cookie: "session=1" },
        player: { email: "jane@example.com", phone: "+44 7700 900189" },
        token: "t0k3n",
      },
      "oops",
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ["abc.def.ghi", "Bearer x", "session=1", "jane@example.com", "7700", "t0k3n"]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("[redacted]");
  });

  it("masks e-mail addresses, phone numbers, bearer tokens and JWTs inside free text", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl";
    const { lines, logger } = captureAt("debug");
    logger.error({ message: `lookup of jane.doe@example.com with ${jwt} failed` }, "call +44 7700 900189");
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain("jane.doe@example.com");
    expect(text).not.toContain(jwt);
    expect(text).not.toContain("900189");
    expect(scrubText("Authorization: Bearer s3cr3t-token")).toBe("Authorization: Bearer [redacted]");
  });

  it("the linear patterns still mask what the old ones did: JWT after a hyphen, e-mails back to back", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl";
    expect(scrubText(`token-${jwt}`)).toBe("token-[jwt]");
    expect(scrubText("a@b.com!x@y.org and jane.doe@example.co.uk")).toBe("[email][email] and [email]");
    // A JWT cut short (a truncated header or line) is masked too.
    expect(scrubText("eyJhbGciOiJIUzI1NiJ9.eyJzdWIi")).toBe("[jwt]");
  });

  it("cuts text longer than MAX_LOGGED_TEXT after masking, saying how much was left out", () => {
    const { lines, logger } = captureAt("debug");
    const path = `/api/v1/players/jane@example.com/${"a".repeat(15_000)}`;
    logger.info({ path }, "request");
    const logged = String(lines[0]?.path);
    expect(logged.length).toBeLessThan(MAX_LOGGED_TEXT + 40);
    expect(logged).toMatch(/…\[\d+ more characters\]$/);
    expect(logged).toContain("[email]");
    expect(JSON.stringify(lines[0])).not.toContain("jane@example.com");
    // Short text is untouched.
    expect(scrubText("/api/v1/players/P000007")).toBe("/api/v1/players/P000007");
  });

  it("masks exactly what every pattern applied to every text would (the quick scan skips only clean text)", () => {
    const everyPattern = (text: string) =>
      MASKS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
    const pieces = fc.constantFrom(
      "a",
      "Z",
      "0",
      "9",
      "@",
      "+",
      ".",
      "-",
      "/",
      " ",
      "eyJ",
      "BeArEr ",
      "x.y",
      "é",
    );
    const text = fc.array(pieces, { maxLength: 60 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 80 })), (t) => {
        expect(scrubText(t)).toBe(everyPattern(t));
      }),
      { numRuns: 2_000 },
    );
    expect(scrubText("/api/v1/players/P000007")).toBe("/api/v1/players/P000007");
    expect(scrubText("AUTHORIZATION: BEARER abc")).toBe("AUTHORIZATION: BEARER [redacted]");
  });

  it("redacts sensitive keys whatever their case, at every depth walked", () => {
    const { lines, logger } = captureAt("debug");
    logger.warn({ Authorization: "x1", a: { b: { Cookie: "x2", c: { PASSWORD: "x3" } } } }, "deep");
    const text = JSON.stringify(lines[0]);
    for (const secret of ["x1", "x2", "x3"]) expect(text).not.toContain(secret);
  });

  it("keeps dates readable (audit records logged as a last resort carry them)", () => {
    const { lines, logger } = captureAt("debug");
    logger.error({ audit: { occurredAt: new Date("2026-11-20T12:00:00.000Z"), subject: "agent7" } }, "x");
    expect(lines[0]?.audit).toEqual({ occurredAt: "2026-11-20T12:00:00.000Z", subject: "agent7" });
  });

  it("tells request-path callers which levels are on, and writes only those", () => {
    const { lines, logger } = captureAt("warn");
    const global = globalThis as unknown as { parLogger?: unknown };
    const previous = global.parLogger;
    global.parLogger = logger;
    try {
      expect([log.enabled("debug"), log.enabled("info"), log.enabled("warn"), log.enabled("error")]).toEqual([
        false,
        false,
        true,
        true,
      ]);
      log.info("request", { requestId: "r1" });
      log.warn("database unavailable", { requestId: "r2" });
      expect(lines.map((line) => line.requestId)).toEqual(["r2"]);
    } finally {
      global.parLogger = previous;
    }
  });
});

describe("the access log on standard output", () => {
  /** A child process that runs `logs` (with `log` in scope), then exits (as Next.js does). */
  function runInChild(logs: string) {
    const script = `
      process.env.LOG_LEVEL = "info";
      const { log } = await import(${JSON.stringify(new URL("./log.ts", import.meta.url).pathname)});
      ${logs}
      setTimeout(() => process.exit(0), 0);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
    });
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    return { exited, lines: () => text.split("\n").filter(Boolean) };
  }
  const logInChild = (count: number) =>
    runInChild(`for (let i = 0; i < ${count}; i++) log.info("request", { requestId: "r" + i });`);

  it("writes the access line exactly as pino writes the same fields, masked alike", async () => {
    const fields = [
      {
        requestId: "r1",
        method: "GET",
        route: "/api/v1/players/P000007",
        status: 200,
        durationMs: 3,
        subject: "agent-7",
      },
      {
        requestId: "r2",
        clientRequestId: "client-7:a",
        method: "GET",
        route: '/api/v1/players/jane@example.com/"x"\\',
        status: 404,
        durationMs: 12,
      },
      {
        requestId: "eyJhbGciOiJIUzI1NiJ9.e30.x",
        method: "GET",
        route: "/api/\u00e9\u2028",
        status: 401,
        durationMs: 0,
        subject: "+44 7700 900189",
      },
    ];
    const child = runInChild(
      fields
        .map((f) => `log.request(${JSON.stringify(f)}); log.info("request", ${JSON.stringify(f)});`)
        .join("\n"),
    );
    await child.exited;
    const lines = child.lines();
    expect(lines).toHaveLength(6);
    for (let i = 0; i < lines.length; i += 2) {
      const [fast, viaPino] = [lines[i] ?? "", lines[i + 1] ?? ""].map((l) =>
        l.replace(/"time":"[^"]+"/, '"time":"T"'),
      );
      expect(fast).toBe(viaPino);
    }
    const masked = lines.join("\n");
    for (const secret of ["jane@example.com", "7700 900189", "eyJhbGciOiJIUzI1NiJ9"])
      expect(masked).not.toContain(secret);
  });

  it("writes a few lines while the process keeps running, not only at exit", async () => {
    // The child logs three lines and then runs until told to exit (a line on its stdin): it is told only once the
    // lines have arrived, so they can only have come from the periodic flush (200 ms), never from the one at exit.
    const script = `
      process.env.LOG_LEVEL = "info";
      const { log } = await import(${JSON.stringify(new URL("./log.ts", import.meta.url).pathname)});
      for (let i = 0; i < 3; i++) log.info("request", { requestId: "r" + i });
      process.stdin.once("data", () => process.exit(0)).once("end", () => process.exit(1));`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let exitedFirst = false;
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => {
        exitedFirst = true;
        resolve(code);
      }),
    );
    let text = "";
    const threeLines = new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.split("\n").filter(Boolean).length >= 3) resolve();
      });
    });
    // Without a flush while running the lines never come: a generous wait, then the child is killed.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 20_000);
    });
    try {
      await Promise.race([threeLines, exited, gaveUp]);
      expect(text.split("\n").filter(Boolean), "the lines arrived while the child ran").toHaveLength(3);
      expect(exitedFirst, "the child was still running when its lines arrived").toBe(false);
      child.stdin.write("exit\n");
      expect(await exited).toBe(0);
    } finally {
      clearTimeout(timer);
      child.kill("SIGKILL");
    }
    const lines = text.split("\n").filter(Boolean);
    expect(lines.map((l) => JSON.parse(l).requestId)).toEqual(["r0", "r1", "r2"]);
  }, 30_000);

  it("loses no line at exit, however many are waiting", async () => {
    const child = logInChild(20_000);
    await child.exited;
    const lines = child.lines();
    expect(lines).toHaveLength(20_000);
    expect(JSON.parse(lines.at(-1) ?? "{}").requestId).toBe("r19999");
  });
});
