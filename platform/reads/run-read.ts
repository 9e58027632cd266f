import "server-only";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { routeRead } from "@/platform/db/read-router";
import type { ReadDatabase } from "./read-definition.ts";

/*
 * The one place a read gets its database client. The callers of the definitions (platform/http/api-handler.ts,
 * server-caller.ts) hand `run`, `begin` and `open` the client chosen here; no definition imports a client
 * (test/lib-imports.test.ts fails naming one that does). The audit writer, the session store and the health
 * check never come through here: they use the primary's client directly.
 */

/**
 * Runs `read` on its database: routed (the standby while usable, a standby's connection failure retried once on
 * the primary: read-router.ts) or, for a definition that says `primary`, the primary.
 */
export function onReadDatabase<T>(
  database: ReadDatabase | undefined,
  read: (db: PrismaClient) => Promise<T>,
): Promise<T> {
  return database === "primary" ? read(getPrisma()) : routeRead(read);
}
