import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { SIGN_IN_PATH } from "@/platform/auth/paths";
import { getCurrentSession } from "@/platform/auth/session";
import { getEnv } from "@/platform/env/env";
import { AppHeader } from "@/platform/ui/app-header";
import { NoRoleNotice } from "@/platform/ui/auth/no-role-notice";
import { Providers } from "@/platform/ui/providers";

export const dynamic = "force-dynamic";

/**
 * Every page in this group needs a session (the proxy already redirected with a way back), and a role:
 * without one, the page says so instead of rendering reads that would all be refused.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await getCurrentSession();
  if (!session) redirect(SIGN_IN_PATH);
  return (
    <Providers>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow"
      >
        Skip to content
      </a>
      <AppHeader name={session.user.name ?? session.user.email ?? "Signed in"} role={session.user.role} />
      {/* A page marked data-wide-page (the portfolio's ten-column table) gets up to 96rem instead of 80rem. */}
      <main
        id="main"
        className="mx-auto max-w-7xl px-4 pb-16 pt-6 sm:px-6 has-[[data-wide-page]]:max-w-[96rem]"
      >
        {session.user.role ? children : <NoRoleNotice contact={getEnv().AUTH_ACCESS_CONTACT ?? null} />}
      </main>
    </Providers>
  );
}
