import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "@/platform/ui/cn";

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <section className={cn("rounded-lg border border-slate-200 bg-white shadow-xs", className)} {...props} />
  );
}

interface CardHeaderProps {
  title: ReactNode;
  titleId?: string;
  description?: ReactNode;
  actions?: ReactNode;
  level?: 2 | 3;
}

export function CardHeader({ title, titleId, description, actions, level = 2 }: CardHeaderProps) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 border-b border-slate-100 px-4 py-3 sm:px-5">
      <div className="min-w-0">
        <Heading id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </Heading>
        {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}

/** A card named by its header: the heading's `titleId` labels the card for screen readers. */
export function TitledCard({
  children,
  ...header
}: CardHeaderProps & { titleId: string; children: ReactNode }) {
  return (
    <Card aria-labelledby={header.titleId}>
      <CardHeader {...header} />
      {children}
    </Card>
  );
}
