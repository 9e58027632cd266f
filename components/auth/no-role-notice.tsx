import { ShieldOff } from "lucide-react";
import { SignOutButton } from "../sign-out-button.tsx";

/**
 * Shown instead of every back-office page to a signed-in user whose identity provider gave no back-office
 * role: every API read would be refused, so say why once, and whom to ask, rather than a page of 403 panels.
 */
export function NoRoleNotice({ contact }: { contact: string | null }) {
  return (
    <section
      aria-labelledby="no-role-heading"
      className="mx-auto mt-10 max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-6"
      data-testid="no-role"
    >
      <h1 id="no-role-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <ShieldOff aria-hidden="true" className="size-5 text-amber-700" />
        Your account has no role in this back office
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        You are signed in, but your account has not been given a back-office role (VIP manager, support agent
        or admin), so no player data can be shown. To get access, ask{" "}
        {contact ?? "an administrator of this back office"}.
      </p>
      <div className="mt-4">
        <SignOutButton />
      </div>
    </section>
  );
}
