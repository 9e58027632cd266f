"use client";

import { RotateCw, TriangleAlert } from "lucide-react";
import { ApiRequestError } from "@/platform/client/api-client";
import { Button } from "./button.tsx";

/** A failed query: what went wrong, a retry (it refetches), and the request id to quote to support. */
export function ErrorState({
  query,
  title = "Could not load this",
  compact = false,
}: {
  query: { error: unknown; refetch: () => Promise<unknown>; isFetching: boolean };
  title?: string;
  compact?: boolean;
}) {
  const { error, isFetching: retrying } = query;
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
      <Button onClick={() => void query.refetch()} disabled={retrying} size="sm">
        <RotateCw aria-hidden="true" className={retrying ? "size-4 animate-spin" : "size-4"} />
        {retrying ? "Retrying…" : "Retry"}
      </Button>
    </div>
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}
