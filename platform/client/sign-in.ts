/*
 * The sign-in form's rules, apart from React: what each next-auth error code tells the user, whether a
 * credentials sign-in succeeded, and when the form may be sent (platform/ui/hooks/use-sign-in.ts puts them together).
 */

const SIGN_IN_ERRORS: Record<string, string> = {
  CredentialsSignin: "That username and password do not match a demo account.",
  OAuthSignin: "Could not start single sign-on. Try again.",
  OAuthCallback: "Single sign-on did not complete. Try again.",
  AccessDenied: "Access was denied.",
  SessionRequired: "Please sign in to continue.",
  TooManyAttempts:
    "Too many failed sign-ins for this account or from this network. Wait a few minutes, then try again.",
};

export const SIGN_IN_FAILED = "Sign-in failed. Try again.";

/** The message for next-auth's error code (`?error=` or a failed sign-in); null when there is no error. */
export function signInErrorMessage(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  return Object.hasOwn(SIGN_IN_ERRORS, code) ? (SIGN_IN_ERRORS[code] ?? SIGN_IN_FAILED) : SIGN_IN_FAILED;
}

/** What next-auth's `signIn(…, { redirect: false })` answers (its SignInResponse, the part read here). */
export interface SignInAnswer {
  ok: boolean;
  error: string | null | undefined;
}

/** A credentials sign-in's answer: done, or the message to show (no answer at all is a failure too). */
export function signInOutcome(
  answer: SignInAnswer | undefined,
): { ok: true } | { ok: false; message: string } {
  if (answer?.ok && !answer.error) return { ok: true };
  return { ok: false, message: signInErrorMessage(answer?.error ?? "") ?? SIGN_IN_FAILED };
}

/** The form may be sent once both fields hold something and no sign-in is under way. */
export function canSubmitSignIn(form: { busy: boolean; username: string; password: string }): boolean {
  return !form.busy && form.username !== "" && form.password !== "";
}

/** The submit button's words. */
export const signInButtonLabel = (busy: boolean) => (busy ? "Signing in…" : "Sign in");
