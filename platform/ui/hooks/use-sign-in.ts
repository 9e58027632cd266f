"use client";

import { signIn } from "next-auth/react";
import { type FormEvent, useId, useRef, useState } from "react";
import { clearApiCredentials } from "@/platform/client/api-client";
import {
  canSubmitSignIn,
  signInButtonLabel,
  signInErrorMessage,
  signInOutcome,
} from "@/platform/client/sign-in";
import { useHydrated } from "./use-hydrated.ts";

/**
 * The sign-in form's behaviour: its fields, the error line (from the page's `?error=` at first), the
 * credentials sign-in (a full page load on success, the password selected for another try on failure),
 * the demo accounts' "Use" and single sign-on. The rules are platform/client/sign-in.ts's.
 */
export function useSignIn({
  callbackUrl,
  initialError,
}: {
  callbackUrl: string;
  initialError: string | null;
}) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(() =>
    initialError ? signInErrorMessage(initialError) : null,
  );
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const errorId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const outcome = signInOutcome(
      await signIn("credentials", { username, password, redirect: false, callbackUrl }),
    );
    if (outcome.ok) {
      clearApiCredentials();
      // A full page load: the server layout reads the new session cookie.
      window.location.assign(callbackUrl);
      return;
    }
    setBusy(false);
    setError(outcome.message);
    passwordRef.current?.select();
  }

  function fillDemo(account: { username: string; password: string }) {
    setUsername(account.username);
    setPassword(account.password);
    setError(null);
  }

  function signInWithOidc() {
    setBusy(true);
    void signIn("oidc", { callbackUrl });
  }

  return {
    username,
    setUsername,
    password,
    setPassword,
    error,
    errorId,
    busy,
    hydrated,
    passwordRef,
    canSubmit: canSubmitSignIn({ busy, username, password }),
    submitLabel: signInButtonLabel(busy),
    submit,
    fillDemo,
    signInWithOidc,
  };
}
