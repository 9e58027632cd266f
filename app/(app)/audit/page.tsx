import { ShieldOff } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { AuditLog } from "@/components/audit/audit-log";
import { getCurrentSession } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Audit trail · Player Accounts" };

/** Admins only; the API enforces the same rule (audit:read) for every caller. */
export default async function AuditPage() {
  const isAdmin = (await getCurrentSession())?.user?.role === "admin";
  if (!isAdmin) return <Forbidden />;
  return (
    <Suspense>
      <AuditLog />
    </Suspense>
  );
}

/** Said once, plainly, instead of a page whose every read would be refused. */
function Forbidden() {
  return (
    <section
      aria-labelledby="forbidden-heading"
      className="mx-auto mt-10 max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-6"
      data-testid="forbidden"
    >
      <h1 id="forbidden-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <ShieldOff aria-hidden="true" className="size-5 text-amber-700" />
        403 · Only admins can see the audit trail
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        The audit trail lists every read of player data by everyone; it needs the admin role (scope{" "}
        <code className="font-mono">audit:read</code>). Your role can look players up and read their data.
      </p>
      <p className="mt-4 text-sm">
        <Link href="/" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          Back to the player lookup
        </Link>
      </p>
    </section>
  );
}
