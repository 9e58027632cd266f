import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getAuditQueue } from "@/lib/audit/audit-recorder";
import { getPrisma } from "@/lib/db/client";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";

/* ETag, If-None-Match and Cache-Control on the API's JSON reads, through the route handlers. */

const PLAYER = "P000190";
const READS = [
  `/api/v1/players/${PLAYER}`,
  `/api/v1/players/${PLAYER}/transactions?limit=5`,
  `/api/v1/players?ids=${PLAYER},P000191`,
  `/api/v1/players/${PLAYER}/summary?period=all`,
];

const kit = routeKitForFile();
const agent = await kitToken("agent-etag", { roles: ["support_agent"] });
const vip = await kitToken("vip-etag", { roles: ["vip_manager"] });

describe("conditional reads", () => {
  it("tag each JSON read, revalidate it, and answer 304 without a body for a current copy", async () => {
    for (const path of READS) {
      const first = await kit.call("GET", path, { token: agent });
      expect(first.status, path).toBe(200);
      expect(first.headers.get("cache-control"), path).toBe("private, no-cache");
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^W\/"/);
      const again = await kit.call("GET", path, {
        token: agent,
        headers: { "if-none-match": etag as string },
      });
      expect(again.status, path).toBe(304);
      expect(again.text, path).toBe("");
      expect(again.headers.get("etag"), path).toBe(etag);
      expect(again.headers.get("x-request-id"), path).toBeTruthy();
    }
  });

  it("tags each scope's masking apart", async () => {
    const masked = await kit.call("GET", `/api/v1/players/${PLAYER}`, { token: agent });
    const full = await kit.call("GET", `/api/v1/players/${PLAYER}`, { token: vip });
    expect(masked.headers.get("etag")).not.toBe(full.headers.get("etag"));
    const stale = await kit.call("GET", `/api/v1/players/${PLAYER}`, {
      token: vip,
      headers: { "if-none-match": masked.headers.get("etag") as string },
    });
    expect(stale.status).toBe(200);
  });

  it("gives the list a new tag after a new transaction, the profile after a change of the player", async () => {
    const list = `/api/v1/players/${PLAYER}/transactions?limit=5`;
    const profile = `/api/v1/players/${PLAYER}`;
    const listTag = (await kit.call("GET", list, { token: agent })).headers.get("etag") as string;
    const profileTag = (await kit.call("GET", profile, { token: agent })).headers.get("etag") as string;
    const id = `ETAG-${randomUUID()}`;
    const db = getPrisma();
    await db.$executeRaw`INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at, completed_at, status)
      VALUES (${id}, ${PLAYER}, now(), 'deposit', 'Card', 25.5, 'EUR', 'System', now(), now(), 'completed')`;
    await db.$executeRaw`UPDATE players SET blocked = NOT blocked WHERE id = ${PLAYER}`;
    try {
      const after = await kit.call("GET", list, { token: agent, headers: { "if-none-match": listTag } });
      expect(after.status).toBe(200);
      expect(after.headers.get("etag")).not.toBe(listTag);
      expect(after.text).toContain(id);
      const changed = await kit.call("GET", profile, {
        token: agent,
        headers: { "if-none-match": profileTag },
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(profileTag);
    } finally {
      await db.$executeRaw`DELETE FROM transactions WHERE id = ${id}`;
      await db.$executeRaw`UPDATE players SET blocked = NOT blocked WHERE id = ${PLAYER}`;
    }
    // Changed back, but changed: the profile's updated_at moved, so the old tag no longer matches; the new one does.
    const restored = await kit.call("GET", profile, {
      token: agent,
      headers: { "if-none-match": profileTag },
    });
    expect(restored.status).toBe(200);
    const again = await kit.call("GET", profile, {
      token: agent,
      headers: { "if-none-match": restored.headers.get("etag") as string },
    });
    expect(again.status).toBe(304);
  });

  it("records a 304 in the audit trail as the read it confirms", async () => {
    const session = `etag-${randomUUID()}`;
    const headers = { "x-session-id": session };
    const first = await kit.call("GET", `/api/v1/players/${PLAYER}`, { token: agent, headers });
    const etag = first.headers.get("etag") as string;
    const again = await kit.call("GET", `/api/v1/players/${PLAYER}`, {
      token: agent,
      headers: { ...headers, "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    await getAuditQueue().flush();
    const rows = await getPrisma().$queryRaw<{ operation: string; player_id: string }[]>`
      SELECT operation::text, player_id FROM audit_events WHERE session_id = ${session}`;
    expect(rows).toEqual([
      { operation: "profile", player_id: PLAYER },
      { operation: "profile", player_id: PLAYER },
    ]);
  });

  it("keeps the export and problems no-store, without a tag", async () => {
    const exported = await kit.call("GET", `/api/v1/players/${PLAYER}/transactions/export?format=csv`, {
      token: agent,
    });
    expect(exported.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(exported.headers.get("etag")).toBeNull();
    const bad = await kit.call("GET", "/api/v1/players?ids=", { token: agent });
    expect(bad.headers.get("cache-control")).toBe("no-store");
    expect(bad.headers.get("etag")).toBeNull();
  });
});
