import type { HTMLAttributes } from "react";
import { cn } from "@/platform/ui/cn";

/**
 * A region that scrolls sideways when its table is wider than the screen: focusable, so the keyboard can scroll
 * it too, and named (`aria-label` or `aria-labelledby`) for the screen reader that lands on it.
 */
export function ScrollRegion({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be reachable by keyboard
      tabIndex={0}
      className={cn("overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600", className)}
      {...props}
    />
  );
}
