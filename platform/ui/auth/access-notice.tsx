import { ShieldOff } from "lucide-react";
import { type ReactNode, useId } from "react";

/**
 * A page's whole content when the signed-in user may not use it: said once, plainly, with what to do next,
 * instead of a page whose every read would be refused.
 */
export function AccessNotice({
  title,
  children,
  action,
  testId,
}: {
  title: string;
  children: ReactNode;
  action: ReactNode;
  testId: string;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mx-auto mt-10 max-w-xl rounded-lg border border-amber-300 bg-amber-50 p-6"
      data-testid={testId}
    >
      <h1 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <ShieldOff aria-hidden="true" className="size-5 text-amber-700" />
        {title}
      </h1>
      <p className="mt-2 text-sm text-slate-700">{children}</p>
      <div className="mt-4 text-sm">{action}</div>
    </section>
  );
}
