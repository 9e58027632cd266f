import Link from "next/link";
import { ROLE_LABELS, type Role } from "@/platform/auth/roles";
import { SignOutButton } from "./sign-out-button.tsx";

export function AppHeader({ name, role }: { name: string; role: Role | null }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      {/* As wide as the page below it (app/(app)/layout.tsx): a wide page widens the header too. */}
      <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 [body:has([data-wide-page])_&]:max-w-[96rem]">
        <Link
          href="/"
          className="flex items-center gap-2 rounded-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <span
            aria-hidden="true"
            className="grid size-7 place-items-center rounded-md bg-indigo-600 text-sm text-white"
          >
            PA
          </span>
          <span className="sr-only whitespace-nowrap sm:not-sr-only">Player Accounts</span>
        </Link>
        <div className="flex items-center gap-2 sm:gap-3">
          {role === "vip_manager" || role === "admin" ? (
            <Link
              href="/portfolio"
              className="rounded-sm text-sm text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              {role === "admin" ? "Portfolios" : "My players"}
            </Link>
          ) : null}
          {role === "admin" ? (
            <Link
              href="/audit"
              className="rounded-sm text-sm text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Audit trail
            </Link>
          ) : null}
          <a
            href="/api/v1/docs"
            className="hidden rounded-sm text-sm text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 md:inline"
          >
            API reference
          </a>
          <p className="text-right text-sm leading-tight" data-testid="signed-in-user">
            <span className="sr-only">Signed in as </span>
            <span className="block max-w-44 truncate whitespace-nowrap font-medium text-slate-900 sm:max-w-none">
              {name}
            </span>
            {role ? (
              <span className="block whitespace-nowrap text-xs text-slate-600">{ROLE_LABELS[role]}</span>
            ) : null}
          </p>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
