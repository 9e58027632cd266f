/**
 * Runs `fn` at most once per `intervalMs`: the first call at once, calls during the interval folded into one
 * trailing call at its end. A burst of nudges (a busy player changes in every batch) costs one refresh a second.
 * Returns the trigger and a cancel for unmounting.
 */
export function coalesce(fn: () => void, intervalMs: number): { trigger: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending = false;
  const open = () => {
    timer = setTimeout(() => {
      timer = null;
      if (!pending) return;
      pending = false;
      fn();
      open();
    }, intervalMs);
  };
  return {
    trigger: () => {
      if (timer) {
        pending = true;
        return;
      }
      fn();
      open();
    },
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = false;
    },
  };
}
