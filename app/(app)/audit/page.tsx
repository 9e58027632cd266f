import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { AuditLog } from "@/components/audit/audit-log";
import { AccessNotice } from "@/components/auth/access-notice";
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
    <AccessNotice
      testId="forbidden"
      title="403 · Only admins can see the audit trail"
      action={
        <Link href="/" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          Back to the player lookup
        </Link>
      }
    >
      The audit trail lists every read of player data by everyone; it needs the admin role (scope{" "}
      <code className="font-mono">audit:read</code>). Your role can look players up and read their data.
    </AccessNotice>
  );
}
