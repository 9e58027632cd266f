import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { authProviderSettings } from "@/platform/auth/auth-options";
import { DEMO_CREDENTIALS } from "@/platform/auth/demo-credentials";
import { SIGN_IN_REASON_EXPIRED, safeCallbackPath } from "@/platform/auth/paths";
import { getCurrentSession } from "@/platform/auth/session";
import { SignInForm } from "@/platform/ui/auth/sign-in-form";

export const metadata: Metadata = { title: "Sign in · Player Accounts" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const callbackUrl = safeCallbackPath(one(params.callbackUrl));
  if (await getCurrentSession()) redirect(callbackUrl);
  const settings = authProviderSettings();
  const expired = one(params.reason) === SIGN_IN_REASON_EXPIRED;

  return (
    <main id="main" className="flex min-h-screen items-start justify-center px-4 py-10 sm:items-center">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-700">Back office</p>
          <h1 className="mt-1 text-2xl font-semibold text-slate-900">Sign in to Player Accounts</h1>
          <p className="mt-2 text-sm text-slate-600">Player profiles and transaction history.</p>
        </div>
        {expired ? (
          <p
            role="status"
            data-testid="session-expired"
            className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950"
          >
            Your session expired — sign in to continue.
            {callbackUrl !== "/" ? (
              <span className="block font-normal text-amber-900">
                You will return to the page you were on.
              </span>
            ) : null}
          </p>
        ) : null}
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-xs">
          {settings.demoUsers || settings.oidc ? (
            <SignInForm
              callbackUrl={callbackUrl}
              demoAccounts={settings.demoUsers ? DEMO_CREDENTIALS : null}
              oidcName={settings.oidc?.name ?? null}
              initialError={one(params.error) ?? null}
            />
          ) : (
            <div role="alert" className="space-y-2 text-sm text-slate-700">
              <p className="font-medium text-slate-900">Signing in is not possible on this server.</p>
              <p>
                No sign-in method is configured. An administrator needs to connect the identity provider (the
                OIDC_* settings).
              </p>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
