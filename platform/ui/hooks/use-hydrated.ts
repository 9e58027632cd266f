import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/**
 * false in the server's HTML and until React has hydrated, then true. A control whose action lives in
 * JavaScript stays disabled until then: a click on the server's HTML before hydration would be lost
 * without a word, and on a slow machine that window is seconds long.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
