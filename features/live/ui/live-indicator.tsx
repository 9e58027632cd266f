"use client";

import { CirclePause, LoaderCircle, Radio, RefreshCw } from "lucide-react";
import type { LiveStatus } from "@/features/live/client/live-updates";
import { cn } from "@/platform/ui/cn";

const LOOK: Record<LiveStatus, { label: string; hint: string; icon: typeof Radio; className: string }> = {
  connecting: {
    label: "Connecting…",
    hint: "Connecting to live updates",
    icon: LoaderCircle,
    className: "text-slate-600",
  },
  live: {
    label: "Live",
    hint: "Live: new activity shows as it happens",
    icon: Radio,
    className: "border-emerald-200 bg-emerald-50 text-emerald-800",
  },
  reconnecting: {
    label: "Reconnecting…",
    hint: "Live updates lost; reconnecting. Figures may be behind until then",
    icon: RefreshCw,
    className: "border-amber-200 bg-amber-50 text-amber-900",
  },
  paused: {
    label: "Updates paused",
    hint: "Live updates are not available: reload the page to see new activity",
    icon: CirclePause,
    className: "text-slate-600",
  },
};

/**
 * Whether the page follows the player's changes: the word and an icon (never colour alone), announced politely
 * when it changes. Without live updates it says so quietly (grey, no border) and the page works as before.
 */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  const look = LOOK[status];
  const Icon = look.icon;
  return (
    <p
      role="status"
      data-testid="live-indicator"
      data-status={status}
      title={look.hint}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border border-transparent px-2 py-0.5 text-sm",
        look.className,
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn(
          "size-4",
          (status === "connecting" || status === "reconnecting") && "motion-safe:animate-spin",
        )}
      />
      <span>{look.label}</span>
      <span className="sr-only">. {look.hint}.</span>
    </p>
  );
}
