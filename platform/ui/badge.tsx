import type { ReactNode } from "react";
import type { Tone } from "@/platform/format/labels";
import { cn } from "@/platform/ui/cn";

const TONES: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/20",
  positive: "bg-emerald-50 text-emerald-800 ring-emerald-600/25",
  warning: "bg-amber-50 text-amber-900 ring-amber-600/30",
  negative: "bg-red-50 text-red-800 ring-red-600/25",
  info: "bg-sky-50 text-sky-800 ring-sky-600/25",
};

/** Solid fills for states nobody may overlook (a blocked account, held withdrawals). */
const STRONG_TONES: Record<Tone, string> = {
  neutral: "bg-slate-700 text-white ring-slate-800",
  positive: "bg-emerald-700 text-white ring-emerald-800",
  warning: "bg-amber-300 text-amber-950 ring-amber-500",
  negative: "bg-red-700 text-white ring-red-800",
  info: "bg-sky-700 text-white ring-sky-800",
};

/** A status in words, coloured by tone; the icon and the text carry the meaning, never the colour alone. */
export function Badge({
  tone = "neutral",
  strong = false,
  icon,
  children,
  className,
}: {
  tone?: Tone;
  strong?: boolean;
  icon?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        strong ? `${STRONG_TONES[tone]} font-semibold` : TONES[tone],
        className,
      )}
    >
      {icon}
      {children}
    </span>
  );
}
