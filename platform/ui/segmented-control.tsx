"use client";

import type { ReactNode } from "react";
import { cn } from "@/platform/ui/cn";

/**
 * One choice out of a few, as native radio buttons styled as a segmented control: arrow keys move the
 * choice and a screen reader announces "radio, 2 of 4" without any ARIA of our own.
 */
export function SegmentedControl<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  className,
  children,
}: {
  legend: string;
  name: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
  /** Shown before the choices (a visible caption; the legend is for screen readers). */
  children?: ReactNode;
}) {
  return (
    <fieldset className={className}>
      <legend className="sr-only">{legend}</legend>
      {children}
      <div className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
        {options.map((option) => (
          <label
            key={option.value}
            className={cn(
              "relative cursor-pointer whitespace-nowrap rounded px-2 py-1 text-sm has-focus-visible:outline-2 has-focus-visible:outline-indigo-600 sm:px-2.5",
              value === option.value ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              // Transparent over the whole label: it is the click target and keeps native keyboard behaviour.
              className="absolute inset-0 cursor-pointer appearance-none opacity-0"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
