import { cn } from "@/platform/ui/cn";

/** A placeholder of the final content's size, so nothing moves when the data arrives. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn("block animate-pulse rounded bg-slate-200/80", className)} />;
}
