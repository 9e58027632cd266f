import { headers } from "next/headers";
import type { Session } from "next-auth";
import type { ServerCallerOptions } from "@/platform/reads/server-caller";

/**
 * Whether the page is rendered for a document load (open, reload, shared link) rather than for a client
 * navigation. The nuqs adapter sends every change of the URL's filters through Next's router (not shallow),
 * so each one also renders this page on the server, while the browser's query for the new filters is
 * already under way: reading there too would read, and audit, every filter change twice. Browsers mark
 * their navigations' fetches `Sec-Fetch-Dest: empty`; a client that sends no such header gets the view.
 */
function isDocumentLoad(pageHeaders: Headers): boolean {
  const dest = pageHeaders.get("sec-fetch-dest");
  return dest === null || dest === "document";
}

/**
 * Who a page's first view is read for on the server (platform/reads/server-caller.ts): the signed-in user, for a
 * document load; null for a client navigation, which reads in the browser, where its cache is.
 */
export async function firstViewUser(session: Session): Promise<ServerCallerOptions | null> {
  const pageHeaders = await headers();
  if (!isDocumentLoad(pageHeaders)) return null;
  return { sessionId: session.sessionId, name: session.user.name, headers: pageHeaders };
}
