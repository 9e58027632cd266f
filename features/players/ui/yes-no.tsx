import { Check, X } from "lucide-react";

/** A yes/no setting: icon and word, so the meaning never rests on colour. */
export function YesNo({ value }: { value: boolean }) {
  return value ? (
    <span className="inline-flex items-center gap-1 font-medium text-emerald-800">
      <Check aria-hidden="true" className="size-4" />
      Yes
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 font-medium text-slate-600">
      <X aria-hidden="true" className="size-4" />
      No
    </span>
  );
}
