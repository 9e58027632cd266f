"use client";

import { LogOut } from "lucide-react";
import { useState } from "react";
import { clearApiCredentials } from "@/platform/client/api-client";
import { endAppSession } from "@/platform/client/sign-out";
import { useHydrated } from "@/platform/ui/hooks/use-hydrated";
import { Button } from "./button.tsx";

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
          let next: string;
          try {
            next = await endAppSession();
          } catch {
            setBusy(false);
            setFailed(true);
            return;
          }
          window.location.assign(next);
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
