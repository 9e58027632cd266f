import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLog } from "@/features/audit/ui/audit-log";
import { getCurrentSession } from "@/platform/auth/session";
import { ForbiddenNotice } from "../forbidden-notice.tsx";

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

function Forbidden() {
  return (
    <ForbiddenNotice title="403 · Only admins can see the audit trail">
      The audit trail lists every read of player data by everyone; it needs the admin role (scope{" "}
      <code className="font-mono">audit:read</code>). Your role can look players up and read their data.
    </ForbiddenNotice>
  );
}
