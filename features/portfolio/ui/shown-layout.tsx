"use client";

import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

// One object for every render: React compares it by identity, so it never writes it into the element (which
// would wipe the server's HTML); with nothing to set, hydration leaves the element's children as they came.
const SERVER_HTML = { __html: "" };

/**
 * One of the book's two layouts (the table from 768 px, the cards below), which CSS shows or hides by
 * `className`. The server renders both, so the first paint is right on every screen; the browser hydrates
 * only the one its screen shows (`query` matches). The other keeps the server's HTML, hidden and inert, until
 * the rows change (then it empties: no stale rows stay in the page) or the screen starts showing it (a rotated
 * phone, a narrowed window: then it renders afresh from the current rows). Hydrating both layouts' rows was
 * most of the page's main-thread work on a phone (docs/performance.md). Rendered outside hydration (a
 * client-side navigation, a book fetched in the browser) it is always live.
 */
export function ShownLayout({
  query,
  className,
  children,
}: {
  /** The media query under which CSS shows this layout. */
  query: string;
  className: string;
  children: ReactNode;
}) {
  // true on the server and in the hydration pass only.
  const hydrating = useSyncExternalStore(
    subscribeNever,
    () => false,
    () => true,
  );
  const [state, setState] = useState<"server" | "empty" | "live">(() =>
    hydrating && typeof window !== "undefined" && !window.matchMedia(query).matches ? "server" : "live",
  );
  const hydratedChildren = useRef(children);
  useEffect(() => {
    if (state === "live") return;
    const list = window.matchMedia(query);
    const wake = () => setState("live");
    if (list.matches) return wake();
    list.addEventListener("change", wake);
    return () => list.removeEventListener("change", wake);
  }, [state, query]);
  useEffect(() => {
    if (state === "server" && children !== hydratedChildren.current) setState("empty");
  }, [state, children]);
  // The keys swap the element: a live layout never inherits the server's children.
  if (state === "live")
    return (
      <div key="live" className={className}>
        {children}
      </div>
    );
  return state === "server" ? (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty constant; it writes nothing, keeps the server's HTML
    <div key="server" className={className} suppressHydrationWarning dangerouslySetInnerHTML={SERVER_HTML} />
  ) : (
    <div key="empty" className={className} />
  );
}
