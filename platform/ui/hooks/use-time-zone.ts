"use client";

import { useQueryStates } from "nuqs";
import { useSyncExternalStore } from "react";
import { localTimeZoneName } from "@/platform/format/dates";
import { type TimeZoneChoice, timeZoneSearchParams } from "@/platform/format/days";

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
