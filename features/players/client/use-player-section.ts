"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useQueryState } from "nuqs";
import { useEffect } from "react";
import {
  type PlayerSection,
  playerSectionSearchParams,
  resolvePlayerSection,
} from "@/features/players/client/player-sections";

/** The shown section (from `?section=`, see resolvePlayerSection), a setter and each section's link. */
export function usePlayerSection(
  audit: boolean,
): [PlayerSection, (s: PlayerSection) => void, (s: PlayerSection) => string] {
  const [requested, setRequested] = useQueryState(
    "section",
    playerSectionSearchParams.section.withOptions({ history: "push", scroll: false }),
  );
  const search = useSearchParams();
  const pathname = usePathname();
  const params = new URLSearchParams(search.toString());
  const section = resolvePlayerSection(requested, { audit, search: params });
  // A link with filters but no section opens Transactions: write that down, or clearing the filters
  // would take the user to the Overview.
  const implicit = requested === null && section !== "overview";
  useEffect(() => {
    if (implicit) void setRequested(section, { history: "replace" });
  }, [implicit, section, setRequested]);
  const hrefFor = (s: PlayerSection) => {
    const q = new URLSearchParams(params);
    q.set("section", s);
    return `${pathname}?${q.toString()}`;
  };
  return [section, (s) => void setRequested(s), hrefFor];
}
