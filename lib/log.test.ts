import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, scrubText } from "./log.ts";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger(stream, "debug") };
}

describe("structured logging", () => {
  it("writes JSON lines with a string level, an ISO time and the fields", () => {
    const { lines, logger } = capture();
    logger.info({ requestId: "r1", route: "/api/v1/players/P1", status: 200, durationMs: 3 }, "request");
    expect(lines[0]).toMatchObject({ level: "info", msg: "request", requestId: "r1", status: 200 });
    expect(String(lines[0]?.time)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("redacts secrets and contact data by key, also nested", () => {
    const { lines, logger } = capture();
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
    const { lines, logger } = capture();
    logger.error({ message: `lookup of jane.doe@example.com with ${jwt} failed` }, "call +44 7700 900189");
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain("jane.doe@example.com");
    expect(text).not.toContain(jwt);
    expect(text).not.toContain("900189");
    expect(scrubText("Authorization: Bearer s3cr3t-token")).toBe("Authorization: Bearer [redacted]");
  });

  it("keeps dates readable (audit records logged as a last resort carry them)", () => {
    const { lines, logger } = capture();
    logger.error({ audit: { occurredAt: new Date("2026-11-20T12:00:00.000Z"), subject: "agent7" } }, "x");
    expect(lines[0]?.audit).toEqual({ occurredAt: "2026-11-20T12:00:00.000Z", subject: "agent7" });
  });
});
