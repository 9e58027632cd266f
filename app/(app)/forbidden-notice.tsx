import Link from "next/link";
import type { ReactNode } from "react";
import { AccessNotice } from "@/platform/ui/auth/access-notice";

/** A page the user's role may not use: said once, plainly, with the way back to the lookup. */
export function ForbiddenNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <AccessNotice
      testId="forbidden"
      title={title}
      action={
        <Link href="/" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          Back to the player lookup
        </Link>
      }
    >
      {children}
    </AccessNotice>
  );
}
