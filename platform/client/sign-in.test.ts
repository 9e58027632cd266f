import { describe, expect, it } from "vitest";
import {
  canSubmitSignIn,
  SIGN_IN_FAILED,
  signInButtonLabel,
  signInErrorMessage,
  signInOutcome,
} from "./sign-in.ts";

describe("signInErrorMessage", () => {
  it("is null without an error code", () => {
    expect(signInErrorMessage(null)).toBeNull();
    expect(signInErrorMessage(undefined)).toBeNull();
  });

  it("names the known codes in words", () => {
    expect(signInErrorMessage("CredentialsSignin")).toBe(
      "That username and password do not match a demo account.",
    );
    expect(signInErrorMessage("TooManyAttempts")).toMatch(/^Too many failed sign-ins/);
    expect(signInErrorMessage("SessionRequired")).toBe("Please sign in to continue.");
  });

  it("falls back for an unknown, empty or prototype code (never shows the code itself)", () => {
    for (const code of ["Nope", "", "constructor", "__proto__", "<script>"]) {
      expect(signInErrorMessage(code)).toBe(SIGN_IN_FAILED);
    }
  });
});

describe("signInOutcome", () => {
  it("is ok only when next-auth says ok without an error", () => {
    expect(signInOutcome({ ok: true, error: null })).toEqual({ ok: true });
    expect(signInOutcome({ ok: true, error: undefined })).toEqual({ ok: true });
  });

  it("fails with the error's message, or the fallback", () => {
    expect(signInOutcome({ ok: false, error: "CredentialsSignin" })).toEqual({
      ok: false,
      message: "That username and password do not match a demo account.",
    });
    expect(signInOutcome({ ok: true, error: "AccessDenied" })).toEqual({
      ok: false,
      message: "Access was denied.",
    });
    expect(signInOutcome({ ok: false, error: null })).toEqual({ ok: false, message: SIGN_IN_FAILED });
    expect(signInOutcome(undefined)).toEqual({ ok: false, message: SIGN_IN_FAILED });
  });
});

describe("canSubmitSignIn and the button's words", () => {
  it("needs both fields and no sign-in under way", () => {
    expect(canSubmitSignIn({ busy: false, username: "admin", password: "pw" })).toBe(true);
    expect(canSubmitSignIn({ busy: true, username: "admin", password: "pw" })).toBe(false);
    expect(canSubmitSignIn({ busy: false, username: "", password: "pw" })).toBe(false);
    expect(canSubmitSignIn({ busy: false, username: "admin", password: "" })).toBe(false);
  });

  it("says what is happening", () => {
    expect(signInButtonLabel(false)).toBe("Sign in");
    expect(signInButtonLabel(true)).toBe("Signing in…");
  });
});
