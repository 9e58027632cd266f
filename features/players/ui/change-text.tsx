import { ArrowDownRight, ArrowUpRight, Minus } from "lucide-react";
import type { PeriodChange } from "@/features/players/client/period-change";

/** A figure's change in words and signs (the arrow only repeats them: never colour or shape alone). */
export function ChangeText({ change }: { change: PeriodChange }) {
  const Icon =
    change.direction === "up" ? ArrowUpRight : change.direction === "down" ? ArrowDownRight : Minus;
  return (
    <span className="inline-flex items-start gap-1" data-direction={change.direction}>
      <Icon aria-hidden="true" className="mt-px size-3.5 shrink-0" />
      <span>{change.text}</span>
    </span>
  );
}
