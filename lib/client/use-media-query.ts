import { useSyncExternalStore } from "react";

/**
 * Whether the window matches `query` (e.g. "(min-width: 768px)"), following changes. The server's HTML and
 * the hydration pass use `serverValue`; the browser's answer follows right after.
 */
export function useMediaQuery(query: string, serverValue: boolean): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}
