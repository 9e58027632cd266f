import { describe, expect, it } from "vitest";
import {
  guardedPasswordCheck,
  type PasswordAttempt,
  runWithSignInGuard,
  type SignInGuard,
} from "./sign-in-guard.ts";

const attempt: PasswordAttempt = { username: "admin", headers: new Headers({ "x-test": "1" }) };

describe("guardedPasswordCheck", () => {
  it("refuses to check a password outside a guard, without running the check", async () => {
    let checked = false;
    const check = async () => {
      checked = true;
      return { id: "u" };
    };
    expect(() => guardedPasswordCheck(attempt, check)).toThrow(/outside the sign-in route's guard/);
    expect(checked).toBe(false);
  });

  it("hands each check to the guard of the request it runs in", async () => {
    const seen: string[] = [];
    const refuseAdmin: SignInGuard = async (a, verify) => {
      seen.push(`${a.username}:${a.headers.get("x-test")}`);
      return a.username === "admin" ? null : verify();
    };
    const result = await runWithSignInGuard(refuseAdmin, async () => [
      await guardedPasswordCheck(attempt, async () => ({ id: "admin" })),
      await guardedPasswordCheck({ ...attempt, username: "vip" }, async () => ({ id: "vip" })),
    ]);
    expect(result).toEqual([null, { id: "vip" }]);
    expect(seen).toEqual(["admin:1", "vip:1"]);
  });
});
