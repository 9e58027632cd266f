import { useCallback, useSyncExternalStore } from "react";

/**
 * Whether the window matches `query` (e.g. "(min-width: 768px)"), following changes. The server's HTML and
 * the hydration pass use `serverValue`; the browser's answer follows right after.
 */
export function useMediaQuery(query: string, serverValue: boolean): boolean {
  // Stable per query: a new subscribe function would make React unsubscribe and subscribe on every render.
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}
