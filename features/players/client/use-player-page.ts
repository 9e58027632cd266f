"use client";

import { useQuery } from "@tanstack/react-query";
import { useRef, useTransition } from "react";
import { usePlayerLiveUpdates } from "@/features/live/client";
import { availablePlayerSections, type PlayerSection } from "@/features/players/client/player-sections";
import { playerQueries } from "@/features/players/client/queries";
import { usePlayerSection } from "@/features/players/client/use-player-section";
import { useTimeZone } from "@/platform/ui/hooks/use-time-zone";

/**
 * The player 360's state: the profile, the live feed (when `liveUpdates`), the time zone, and the shown section
 * with its tabs. `select` switches section as a transition (`switching` while its code loads, the old section
 * stays) and scrolls back to `top` (an anchor under the sticky header) so the new section starts at its top.
 */
export function usePlayerPage(
  playerId: string,
  { audit, liveUpdates }: { audit: boolean; liveUpdates: boolean },
) {
  const profile = useQuery(playerQueries.playerProfile(playerId));
  const live = usePlayerLiveUpdates(playerId, liveUpdates);
  const [tz] = useTimeZone();
  const [section, selectSection, hrefFor] = usePlayerSection(audit);
  const top = useRef<HTMLDivElement>(null);
  const [switching, startSwitch] = useTransition();
  const sections = availablePlayerSections(audit);

  function select(next: PlayerSection) {
    startSwitch(() => selectSection(next));
    // The new section starts under the sticky header, not wherever the old one was scrolled to.
    const anchor = top.current;
    if (anchor && window.scrollY > anchor.offsetTop) window.scrollTo({ top: anchor.offsetTop });
  }

  return { profile, live, tz, section, sections, hrefFor, select, switching, top };
}
