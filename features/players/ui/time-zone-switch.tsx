"use client";

import { Globe } from "lucide-react";
import { TIME_ZONES } from "@/platform/format/days";
import { useLocalTimeZoneName, useTimeZone } from "@/platform/ui/hooks/use-time-zone";
import { SegmentedControl } from "../../../platform/ui/segmented-control.tsx";

export function TimeZoneSwitch() {
  const [tz, setTz] = useTimeZone();
  const localName = useLocalTimeZoneName();
  const options = TIME_ZONES.map((value) => ({
    value,
    label: value === "utc" ? "UTC" : localName ? `Local (${localName})` : "Local",
  }));
  return (
    <SegmentedControl
      legend="Time zone for dates"
      name="time-zone"
      options={options}
      value={tz}
      onChange={setTz}
      className="flex items-center gap-2"
    >
      <span aria-hidden="true" className="flex items-center gap-1 text-sm text-slate-600">
        <Globe className="size-4" />
        Times in
      </span>
    </SegmentedControl>
  );
}
