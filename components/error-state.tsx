"use client";

import { RotateCw, TriangleAlert } from "lucide-react";
import { ApiRequestError } from "@/lib/client/api-client";
import { Button } from "./ui/button.tsx";

/** A failed request: what went wrong, a retry, and the request id to quote to support. */
export function ErrorState({
  error,
  onRetry,
  retrying = false,
  title = "Could not load this",
  compact = false,
}: {
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  title?: string;
  compact?: boolean;
}) {
  const apiError = error instanceof ApiRequestError ? error : null;
  const detail = apiError?.detail ?? "Something went wrong while loading the data.";
  return (
    <div
      role="alert"
      className={
        compact
          ? "flex flex-col items-start gap-3 p-4"
          : "flex flex-col items-center gap-3 px-4 py-10 text-center"
      }
    >
      <TriangleAlert aria-hidden="true" className="size-6 text-red-700" />
      <div>
        <p className="font-semibold text-slate-900">{title}</p>
        <p className="mt-1 text-sm text-slate-700">
          {detail}
          {apiError && apiError.status > 0 ? ` (HTTP ${apiError.status})` : null}
        </p>
        {apiError?.requestId ? (
          <p className="mt-1 text-xs text-slate-600">
            Request id: <code className="select-all font-mono">{apiError.requestId}</code>
          </p>
        ) : null}
      </div>
      <Button onClick={onRetry} disabled={retrying} size="sm">
        <RotateCw aria-hidden="true" className={retrying ? "size-4 animate-spin" : "size-4"} />
        {retrying ? "Retrying…" : "Retry"}
      </Button>
    </div>
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}
