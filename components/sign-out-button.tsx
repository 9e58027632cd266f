"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { SIGN_IN_PATH } from "@/lib/auth/paths";
import { clearApiCredentials } from "@/lib/client/api-client";
import { Button } from "./ui/button.tsx";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        clearApiCredentials();
        void signOut({ callbackUrl: SIGN_IN_PATH });
      }}
    >
      <LogOut aria-hidden="true" className="size-4" />
      <span className="sr-only sm:not-sr-only">{busy ? "Signing out…" : "Sign out"}</span>
    </Button>
  );
}
