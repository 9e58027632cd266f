"use client";

import { Activity, ArrowDownToLine, Clock, TrendingUp } from "lucide-react";
import { type KeyboardEvent, useId } from "react";
import { FLAG_LABELS, flagDescription } from "@/features/portfolio/client/portfolio-view";
import type { PortfolioData } from "@/features/portfolio/client/queries";
import type { PortfolioFlag } from "@/platform/schemas/enums";
import { cn } from "@/platform/ui/cn";

export const FLAG_ICONS: Record<PortfolioFlag, typeof Clock> = {
  churn_risk: Activity,
  big_withdrawal: ArrowDownToLine,
  pending_withdrawal_24h: Clock,
  deposit_spike: TrendingUp,
};

export const FLAG_TONES: Record<PortfolioFlag, string> = {
  churn_risk: "bg-amber-50 text-amber-900 ring-amber-600/40",
  big_withdrawal: "bg-red-50 text-red-800 ring-red-600/30",
  pending_withdrawal_24h: "bg-orange-50 text-orange-900 ring-orange-600/40",
  deposit_spike: "bg-sky-50 text-sky-800 ring-sky-600/30",
};

/**
 * A flag in words with what it means: the explanation shows on hover and on keyboard focus (a tooltip the badge
 * is described by), and Escape hides it. Pressing it shows only the players with this flag.
 */
export function FlagBadge({
  flag,
  rules,
  currency,
  onSelect,
}: {
  flag: PortfolioFlag;
  rules: PortfolioData["flag_rules"];
  /** The player's currency: the big-withdrawal amount shown is this currency's. */
  currency: string;
  onSelect: (flag: PortfolioFlag) => void;
}) {
  const tipId = useId();
  const Icon = FLAG_ICONS[flag];
  const blurOnEscape = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "Escape") event.currentTarget.blur();
  };
  return (
    <span className="group relative inline-flex">
      <button
        type="button"
        aria-describedby={tipId}
        onClick={() => onSelect(flag)}
        onKeyDown={blurOnEscape}
        data-flag={flag}
        className={cn(
          // Its words may wrap in a narrow table column; one line high, rounded-xl is the pill rounded-full is.
          "inline-flex items-center gap-1 rounded-xl px-2 py-0.5 text-left text-balance text-xs font-medium ring-1 ring-inset",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
          FLAG_TONES[flag],
        )}
      >
        <Icon aria-hidden="true" className="size-3.5 shrink-0" />
        {FLAG_LABELS[flag]}
      </button>
      <span
        role="tooltip"
        id={tipId}
        className="invisible absolute top-full left-0 z-20 mt-1 w-64 rounded-md bg-slate-900 px-3 py-2 text-xs font-normal leading-snug text-white shadow-lg group-focus-within:visible group-hover:visible"
      >
        {flagDescription(flag, rules, currency)}
      </span>
    </span>
  );
}
