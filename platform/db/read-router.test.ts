import { describe, expect, it } from "vitest";
import { isStandbyFailure } from "./read-router.ts";

/** Errors shaped as pg and Prisma's adapter throw them (the driver's error, wrapped). */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
const wrapped = (cause: Error) =>
  Object.assign(new Error("Invalid `prisma.player.findUnique()` invocation"), {
    code: "P2010",
    meta: { driverAdapterError: Object.assign(new Error("DriverAdapterError"), { cause }) },
  });

describe("isStandbyFailure: what is retried once on the primary", () => {
  it("retries connection failures and recovery conflicts, even wrapped by Prisma", () => {
    expect(isStandbyFailure(pgError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5433"))).toBe(true);
    expect(isStandbyFailure(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isStandbyFailure(wrapped(pgError("57P01", "terminating connection due to administrator command"))),
    ).toBe(true);
    expect(
      isStandbyFailure(wrapped(pgError("40001", "canceling statement due to conflict with recovery"))),
    ).toBe(true);
  });

  it("does not retry a statement timeout or an error of the read itself", () => {
    expect(isStandbyFailure(wrapped(pgError("57014", "canceling statement due to statement timeout")))).toBe(
      false,
    );
    expect(isStandbyFailure(wrapped(pgError("42703", 'column "nope" does not exist')))).toBe(false);
    expect(
      isStandbyFailure(Object.assign(new Error("Player P000999 not found"), { code: "not_found" })),
    ).toBe(false);
  });
});
