"use client";

import { KeyRound, LoaderCircle, LogIn } from "lucide-react";
import type { Ref } from "react";
import { ROLE_LABELS, type Role } from "@/platform/auth/roles";
import { useSignIn } from "@/platform/ui/hooks/use-sign-in";
import { Button } from "../button.tsx";

export interface DemoAccount {
  username: string;
  password: string;
  role: Role;
}

type SignIn = ReturnType<typeof useSignIn>;

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
  const form = useSignIn({ callbackUrl, initialError });
  return (
    <div className="space-y-6">
      {oidcName ? (
        <Button
          variant={demoUsers ? "secondary" : "primary"}
          className="w-full"
          onClick={form.signInWithOidc}
          disabled={form.busy || !form.hydrated}
        >
          <LogIn aria-hidden="true" className="size-4" />
          Sign in with {oidcName}
        </Button>
      ) : null}

      {demoUsers ? <CredentialsForm form={form} /> : null}

      {demoAccounts ? (
        <DemoAccounts accounts={demoAccounts} onUse={form.fillDemo} disabled={!form.hydrated} />
      ) : null}
    </div>
  );
}

/** Username and password: usable once the page has hydrated, marked invalid while an error shows. */
function CredentialsForm({ form }: { form: SignIn }) {
  const { error, errorId, busy, hydrated } = form;
  return (
    <form
      onSubmit={form.submit}
      noValidate
      className="space-y-4"
      aria-describedby={error ? errorId : undefined}
    >
      <fieldset disabled={!hydrated} className="space-y-4">
        <CredentialField
          id="username"
          label="Username"
          autoComplete="username"
          value={form.username}
          onChange={form.setUsername}
          invalid={Boolean(error)}
        />
        <CredentialField
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          inputRef={form.passwordRef}
          value={form.password}
          onChange={form.setPassword}
          invalid={Boolean(error)}
        />
        <p id={errorId} role="alert" className="min-h-5 text-sm font-medium text-red-700">
          {error}
        </p>
        <Button type="submit" variant="primary" className="w-full" disabled={!form.canSubmit}>
          {busy ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <LogIn aria-hidden="true" className="size-4" />
          )}
          {form.submitLabel}
        </Button>
      </fieldset>
    </form>
  );
}

/** A labelled, required input of the sign-in form, marked invalid while the form shows an error. */
function CredentialField({
  id,
  label,
  type,
  autoComplete,
  inputRef,
  value,
  onChange,
  invalid,
}: {
  id: string;
  label: string;
  type?: "password";
  autoComplete: string;
  inputRef?: Ref<HTMLInputElement>;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={id}
        type={type}
        autoComplete={autoComplete}
        required
        ref={inputRef}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
        aria-invalid={invalid ? true : undefined}
      />
    </div>
  );
}

/** The demo accounts, one per role, each with a button that fills the form with it. */
function DemoAccounts({
  accounts,
  onUse,
  disabled,
}: {
  accounts: readonly DemoAccount[];
  onUse: (account: DemoAccount) => void;
  disabled: boolean;
}) {
  return (
    <section aria-labelledby="demo-accounts" className="rounded-md border border-slate-200 bg-slate-50 p-4">
      <h2 id="demo-accounts" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <KeyRound aria-hidden="true" className="size-4" />
        Demo accounts
      </h2>
      <p className="mt-1 text-sm text-slate-600">One per role. Choose one to fill in the form.</p>
      <ul className="mt-3 divide-y divide-slate-200 border-t border-slate-200" data-testid="demo-accounts">
        {accounts.map((c) => (
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
              onClick={() => onUse(c)}
              disabled={disabled}
              aria-label={`Use the ${ROLE_LABELS[c.role]} demo account`}
            >
              Use
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
