"use client";

import { LogOut } from "lucide-react";
import { useState } from "react";
import { SIGN_IN_PATH } from "@/lib/auth/paths";
import { clearApiCredentials } from "@/lib/client/api-client";
import { endAppSession } from "@/lib/client/sign-out";
import { useHydrated } from "@/lib/hooks/use-hydrated";
import { Button } from "./ui/button.tsx";

/** The identity provider's end-session URL for this session, or null (demo sessions, or unknown). */
async function providerSignOutUrl(): Promise<string | null> {
  try {
    const res = await fetch("/api/auth/end-session", { cache: "no-store" });
    const body = res.ok ? ((await res.json()) as { url?: unknown }) : null;
    return typeof body?.url === "string" ? body.url : null;
  } catch {
    return null;
  }
}

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const hydrated = useHydrated();
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        disabled={busy || !hydrated}
        onClick={async () => {
          setBusy(true);
          setFailed(false);
          clearApiCredentials();
          // Asked first: the app's sign-out drops the cookie that holds the provider's ID token.
          const providerSignOut = await providerSignOutUrl();
          try {
            await endAppSession();
          } catch {
            setBusy(false);
            setFailed(true);
            return;
          }
          window.location.assign(providerSignOut ?? SIGN_IN_PATH);
        }}
      >
        <LogOut aria-hidden="true" className="size-4" />
        <span className="sr-only sm:not-sr-only">{busy ? "Signing out…" : "Sign out"}</span>
      </Button>
      {failed ? (
        <span role="alert" className="text-xs font-medium text-red-700">
          Sign-out failed. Try again.
        </span>
      ) : null}
    </>
  );
}
