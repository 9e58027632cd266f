import { describeAuditTrailError } from "@/features/audit/client/audit-trail";

/** The trail could not load: the server's reason, the request id to quote, and a retry. */
export function AuditLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { message, requestId } = describeAuditTrailError(error);
  return (
    <div role="alert" className="px-4 py-6 text-sm">
      <p className="font-semibold text-slate-900">Could not load the audit trail</p>
      <p className="mt-1 text-slate-700">{message}</p>
      {requestId ? (
        <p className="mt-1 text-xs text-slate-600">
          Request id: <code className="select-all font-mono">{requestId}</code>
        </p>
      ) : null}
      <button
        type="button"
        className="mt-3 rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50"
        onClick={onRetry}
      >
        Retry
      </button>
    </div>
  );
}
