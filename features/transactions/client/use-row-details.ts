"use client";

import { useCallback, useMemo, useState } from "react";

/** Which rows of a table have their details open: each row's button toggles its own. */
export function useRowDetails() {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string) =>
      setOpen((prev) => {
        const next = new Set(prev);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  return useMemo(() => ({ isOpen: (id: string) => open.has(id), toggle }), [open, toggle]);
}
