"use client";

import { type FocusEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";

/**
 * A button that opens a panel below it: opening focuses the panel's first input; a pointer press outside,
 * focus leaving the whole control, or Escape inside it closes the panel (Escape returns focus to the button).
 */
export function useDropdownPanel() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLInputElement>("input")?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      setOpen(false);
      buttonRef.current?.focus();
    }
  }

  function onBlur(event: FocusEvent) {
    if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
  }

  return {
    open,
    toggle: () => setOpen((o) => !o),
    rootRef,
    buttonRef,
    panelRef,
    panelId,
    onKeyDown,
    onBlur,
  };
}
