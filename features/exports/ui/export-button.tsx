"use client";

import { Download, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { ApiRequestError, apiDownload } from "@/platform/client/api-client";
import { formatCount } from "@/platform/format/money";
import { Button } from "../../../platform/ui/button.tsx";

type ExportState =
  | { kind: "idle" }
  | { kind: "running" }
  | { kind: "done"; fileName: string }
  | { kind: "failed"; message: string };

/** "Export CSV": every transaction the current filters match (not only this page), as a file. */
export function ExportButton({
  playerId,
  query,
  total,
  disabled,
}: {
  playerId: string;
  query: URLSearchParams;
  total: number | undefined;
  disabled: boolean;
}) {
  const [state, setState] = useState<ExportState>({ kind: "idle" });
  const running = state.kind === "running";
  const label =
    total === undefined
      ? "Export CSV"
      : // Starts with the visible text, so a voice user saying "Export CSV" reaches it (WCAG 2.5.3).
        `Export CSV: ${total === 1 ? "this transaction" : `these ${formatCount(total)} transactions`}`;

  const run = async () => {
    setState({ kind: "running" });
    try {
      const fileName = await apiDownload(
        `/players/${encodeURIComponent(playerId)}/transactions/export`,
        query,
        `${playerId}-transactions.csv`,
      );
      setState({ kind: "done", fileName });
    } catch (error) {
      const message =
        error instanceof ApiRequestError
          ? `${error.detail}${error.requestId ? ` (request id ${error.requestId})` : ""}`
          : "The export could not be downloaded.";
      setState({ kind: "failed", message });
    }
  };

  return (
    <div className="flex items-center gap-2">
      <span aria-live="polite" className="text-xs text-slate-600" data-testid="export-status">
        {state.kind === "running"
          ? `Preparing ${total === undefined ? "" : `${formatCount(total)} `}rows…`
          : null}
        {state.kind === "done" ? `Downloaded ${state.fileName}` : null}
        {state.kind === "failed" ? (
          <span className="text-red-700">Export failed: {state.message}</span>
        ) : null}
      </span>
      <Button
        size="sm"
        variant="secondary"
        onClick={() => void run()}
        disabled={disabled || running || total === 0}
        aria-label={label}
        title={label}
      >
        {running ? (
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <Download aria-hidden="true" className="size-4" />
        )}
        Export CSV
      </Button>
    </div>
  );
}
