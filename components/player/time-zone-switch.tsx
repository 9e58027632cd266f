"use client";

import { Globe } from "lucide-react";
import { useQueryStates } from "nuqs";
import { useSyncExternalStore } from "react";
import { TIME_ZONES, type TimeZoneChoice, timeZoneSearchParams } from "@/lib/client/transaction-url-state";
import { cn } from "@/lib/cn";
import { localTimeZoneName } from "@/lib/format/dates";

const subscribe = () => () => {};

/** The browser's zone name after hydration (the server cannot know it). */
export function useLocalTimeZoneName(): string | null {
  return useSyncExternalStore(subscribe, localTimeZoneName, () => null);
}

/** The page's one time zone (?tz=utc|local): every date shown and the date filter use it. */
export function useTimeZone(): [TimeZoneChoice, (tz: TimeZoneChoice) => void] {
  const [{ tz }, set] = useQueryStates(timeZoneSearchParams, { history: "push" });
  return [tz, (next) => void set({ tz: next })];
}

export function TimeZoneSwitch() {
  const [tz, setTz] = useTimeZone();
  const localName = useLocalTimeZoneName();
  const labels: Record<TimeZoneChoice, string> = {
    utc: "UTC",
    local: localName ? `Local (${localName})` : "Local",
  };
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">Time zone for dates</legend>
      <span aria-hidden="true" className="flex items-center gap-1 text-sm text-slate-600">
        <Globe className="size-4" />
        Times in
      </span>
      <div className="inline-flex rounded-md border border-slate-300 bg-white p-0.5">
        {TIME_ZONES.map((value) => (
          <label
            key={value}
            className={cn(
              "relative cursor-pointer rounded px-2.5 py-1 text-sm has-focus-visible:outline-2 has-focus-visible:outline-indigo-600",
              tz === value ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            <input
              type="radio"
              name="time-zone"
              value={value}
              checked={tz === value}
              onChange={() => setTz(value)}
              // Transparent over the whole label: it is the click target and keeps native keyboard behaviour.
              className="absolute inset-0 cursor-pointer appearance-none opacity-0"
            />
            {labels[value]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
