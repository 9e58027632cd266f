"use client";

import { KeyRound, LoaderCircle, LogIn } from "lucide-react";
import { signIn } from "next-auth/react";
import { type FormEvent, useId, useRef, useState } from "react";
import { ROLE_LABELS, type Role } from "@/lib/auth/roles";
import { clearApiCredentials } from "@/lib/client/api-client";
import { useHydrated } from "@/lib/hooks/use-hydrated";
import { Button } from "../ui/button.tsx";

const ERRORS: Record<string, string> = {
  CredentialsSignin: "That username and password do not match a demo account.",
  OAuthSignin: "Could not start single sign-on. Try again.",
  OAuthCallback: "Single sign-on did not complete. Try again.",
  AccessDenied: "Access was denied.",
  SessionRequired: "Please sign in to continue.",
  TooManyAttempts:
    "Too many failed sign-ins for this account or from this network. Wait a few minutes, then try again.",
};

export interface DemoAccount {
  username: string;
  password: string;
  role: Role;
}

const inputClass =
  "mt-1 block h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-slate-900 shadow-xs placeholder:text-slate-400 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600";

/**
 * The demo accounts come from the server page, and only when they are on: this component's bundle never
 * carries their passwords.
 */
export function SignInForm({
  callbackUrl,
  demoAccounts,
  oidcName,
  initialError,
}: {
  callbackUrl: string;
  demoAccounts: readonly DemoAccount[] | null;
  oidcName: string | null;
  initialError: string | null;
}) {
  const demoUsers = demoAccounts !== null;
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(
    initialError ? (ERRORS[initialError] ?? "Sign-in failed. Try again.") : null,
  );
  const [busy, setBusy] = useState(false);
  const hydrated = useHydrated();
  const errorId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn("credentials", { username, password, redirect: false, callbackUrl });
    if (result?.ok && !result.error) {
      clearApiCredentials();
      // A full page load: the server layout reads the new session cookie.
      window.location.assign(callbackUrl);
      return;
    }
    setBusy(false);
    setError(ERRORS[result?.error ?? ""] ?? "Sign-in failed. Try again.");
    passwordRef.current?.select();
  }

  function fillDemo(u: string, p: string) {
    setUsername(u);
    setPassword(p);
    setError(null);
  }

  return (
    <div className="space-y-6">
      {oidcName ? (
        <Button
          variant={demoUsers ? "secondary" : "primary"}
          className="w-full"
          onClick={() => {
            setBusy(true);
            void signIn("oidc", { callbackUrl });
          }}
          disabled={busy || !hydrated}
        >
          <LogIn aria-hidden="true" className="size-4" />
          Sign in with {oidcName}
        </Button>
      ) : null}

      {demoUsers ? (
        <form
          onSubmit={onSubmit}
          noValidate
          className="space-y-4"
          aria-describedby={error ? errorId : undefined}
        >
          <fieldset disabled={!hydrated} className="space-y-4">
            <div>
              <label htmlFor="username" className="block text-sm font-medium text-slate-800">
                Username
              </label>
              <input
                id="username"
                name="username"
                autoComplete="username"
                required
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                className={inputClass}
                aria-invalid={error ? true : undefined}
              />
            </div>
            <div>
              <label htmlFor="password" className="block text-sm font-medium text-slate-800">
                Password
              </label>
              <input
                id="password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                ref={passwordRef}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className={inputClass}
                aria-invalid={error ? true : undefined}
              />
            </div>
            <p id={errorId} role="alert" className="min-h-5 text-sm font-medium text-red-700">
              {error}
            </p>
            <Button
              type="submit"
              variant="primary"
              className="w-full"
              disabled={busy || !username || !password}
            >
              {busy ? (
                <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              ) : (
                <LogIn aria-hidden="true" className="size-4" />
              )}
              {busy ? "Signing in…" : "Sign in"}
            </Button>
          </fieldset>
        </form>
      ) : null}

      {demoUsers ? (
        <section
          aria-labelledby="demo-accounts"
          className="rounded-md border border-slate-200 bg-slate-50 p-4"
        >
          <h2 id="demo-accounts" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
            <KeyRound aria-hidden="true" className="size-4" />
            Demo accounts
          </h2>
          <p className="mt-1 text-sm text-slate-600">One per role. Choose one to fill in the form.</p>
          <ul
            className="mt-3 divide-y divide-slate-200 border-t border-slate-200"
            data-testid="demo-accounts"
          >
            {(demoAccounts ?? []).map((c) => (
              <li key={c.username} className="flex items-center justify-between gap-3 py-2">
                <dl className="grid min-w-0 grid-cols-[auto_1fr] gap-x-3 text-sm">
                  <dt className="sr-only">Role</dt>
                  <dd className="col-span-2 font-medium text-slate-900">{ROLE_LABELS[c.role]}</dd>
                  <dt className="text-slate-600">Username</dt>
                  <dd className="break-all font-mono text-slate-900">{c.username}</dd>
                  <dt className="text-slate-600">Password</dt>
                  <dd className="break-all font-mono text-slate-900">{c.password}</dd>
                </dl>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => fillDemo(c.username, c.password)}
                  disabled={!hydrated}
                  aria-label={`Use the ${ROLE_LABELS[c.role]} demo account`}
                >
                  Use
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
