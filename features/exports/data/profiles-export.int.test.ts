import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { getPrisma } from "@/platform/db/client";
import { lastId, readThenDrop, wholeLines } from "@/test/support/export-stream";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";
import { streamPlayerProfiles } from "./stream-player-profiles.ts";

/*
 * GET /api/v1/exports/players through its route handler on the integration run's database (the demo's players
 * and the test fixtures): the profile read's shape and masking line for line, the manager filter, resume after a
 * cut, the count header, gzip and the audit rows per batch.
 */
const PATH = "/api/v1/exports/players";
const MANAGER = "Sarah Mitchell";
const decoder = new TextDecoder();

const kit = routeKitForFile();
const agent = await kitToken("agent-export", { roles: ["support_agent"] });
const admin = await kitToken("admin-export", { roles: ["admin"] });

const linesOf = (text: string) => text.split("\n").slice(0, -1);
const idOf = (line: string) => (JSON.parse(line) as { id: string }).id;

/** The audit rows of one request, oldest first. */
const auditOf = (requestId: string | null) =>
  getPrisma().auditEvent.findMany({ where: { requestId: requestId ?? "" }, orderBy: { id: "asc" } });

describe("profiles export", () => {
  it("every player, in id order, each line the profile read's body for the same caller (masked without pii)", async () => {
    const all = await getPrisma().player.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    for (const token of [agent, admin]) {
      const res = await kit.call("GET", PATH, { token });
      expect(res.status).toBe(200);
      expect(res.contentType).toBe("application/x-ndjson; charset=utf-8");
      const lines = linesOf(res.text);
      expect(lines.map(idOf)).toEqual(all.map((p) => p.id));
      expect(res.headers.get("x-total-count")).toBe(String(lines.length));
      // Every fourth line against the profile read (each read is audited: all of them would take ~20 s).
      for (const line of lines.filter((_, i) => i % 4 === 0)) {
        const profile = await kit.call("GET", `/api/v1/players/${encodeURIComponent(idOf(line))}`, { token });
        expect(line).toBe(profile.text);
      }
    }
  });

  it("masks contact data without players:pii and shows it with it", async () => {
    const masked = linesOf((await kit.call("GET", PATH, { token: agent })).text).map((l) => JSON.parse(l));
    const full = linesOf((await kit.call("GET", PATH, { token: admin })).text).map((l) => JSON.parse(l));
    const withEmail = full.filter((p) => typeof p.email === "string");
    expect(withEmail.length).toBeGreaterThan(10);
    for (const p of masked) if (p.email !== null) expect(p.email).toMatch(/^[^@]?\*\*\*(@|$)/);
    for (const p of withEmail) expect(p.email).not.toContain("***");
  });

  it("filters by manager, and counts what it sends", async () => {
    const res = await kit.call("GET", `${PATH}?manager=${encodeURIComponent(MANAGER)}`);
    const lines = linesOf(res.text).map((l) => JSON.parse(l) as { vip_manager: string | null });
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((p) => p.vip_manager === MANAGER)).toBe(true);
    expect(res.headers.get("x-total-count")).toBe(String(lines.length));
    expect(lines.length).toBe(await getPrisma().player.count({ where: { vipManager: MANAGER } }));
    const none = await kit.call("GET", `${PATH}?manager=Nobody`);
    expect([none.status, none.text, none.headers.get("x-total-count")]).toEqual([200, "", "0"]);
  });

  it("a consumer cut mid-stream resumes with after= and the parts equal one full export", async () => {
    const full = await kit.call("GET", PATH);
    for (const cut of [2_500, Math.floor(full.text.length * 0.3), Math.floor(full.text.length * 0.6)]) {
      const head = wholeLines(decoder.decode(await readThenDrop(await kit.open("GET", PATH), cut)));
      expect(head.length).toBeGreaterThan(0);
      expect(head.length).toBeLessThan(full.text.length);
      const rest = await kit.call("GET", `${PATH}?after=${encodeURIComponent(lastId(head, "ndjson"))}`);
      expect(rest.headers.get("x-total-count")).toBe(full.headers.get("x-total-count"));
      expect(head + rest.text).toBe(full.text);
    }
  });

  it("gzip when asked decompresses to the identity bytes", async () => {
    const identity = await kit.call("GET", PATH);
    const gz = await kit.call("GET", PATH, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    expect(Buffer.from(gunzipSync(gz.bytes)).equals(Buffer.from(identity.bytes))).toBe(true);
  });

  it("a bad or unknown after, or an unknown parameter, is a 400 naming it", async () => {
    for (const [qs, name] of [
      ["after=NO-SUCH-PLAYER", "after"],
      ["after=", "after"],
      ["manager=", "manager"],
      ["limit=5", "limit"],
    ] as const) {
      const res = await kit.call("GET", `${PATH}?${qs}`);
      expect(res.status, qs).toBe(400);
      expect((res.json as { errors: { name: string }[] }).errors.map((e) => e.name)).toEqual([name]);
    }
    expect((await kit.call("GET", PATH, { token: null })).status).toBe(401);
  });

  it("audits each batch's players before sending it: one full export covers every player exactly once", async () => {
    const res = await kit.call("GET", PATH, { token: agent });
    const rows = await auditOf(res.headers.get("x-request-id"));
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows)
      expect(row).toMatchObject({ operation: "profiles_export", playerId: null, subject: "agent-export" });
    expect(rows.flatMap((r) => r.resultPlayerIds)).toEqual(linesOf(res.text).map(idOf));
  });

  it("a cut export's audit covers every player it sent, in whole batches", async () => {
    const full = linesOf((await kit.call("GET", PATH)).text).map(idOf);
    const res = await kit.open("GET", PATH);
    const sent = linesOf(wholeLines(decoder.decode(await readThenDrop(res, 5_000)))).map(idOf);
    const audited = (await auditOf(res.headers.get("x-request-id"))).flatMap((r) => r.resultPlayerIds);
    expect(sent.length).toBeGreaterThan(0);
    expect(audited.slice(0, sent.length)).toEqual(sent);
    // Whole batches in id order: a prefix of the full export.
    expect(audited).toEqual(full.slice(0, audited.length));
    // A resumed export is audited like any: its rows start after the position.
    const after = sent.at(-1) ?? "";
    const rest = await kit.call("GET", `${PATH}?after=${encodeURIComponent(after)}`);
    const resumed = await auditOf(rest.headers.get("x-request-id"));
    expect(resumed[0]?.filters).toEqual({ after });
    expect(resumed.flatMap((r) => r.resultPlayerIds)).toEqual(full.slice(full.indexOf(after) + 1));
  });
});

describe("streamPlayerProfiles: keyset batches", () => {
  it("resumed after any player, small batches give exactly the rest of the export", async () => {
    const read = async (after?: string, manager?: string) => {
      const ids: string[] = [];
      for await (const batch of streamPlayerProfiles({ after, manager, batch: { first: 7, rest: 13 } })) {
        expect(batch.length).toBeLessThanOrEqual(13);
        ids.push(...batch.map((p) => p.id));
      }
      return ids;
    };
    const all = await read();
    expect(all).toEqual(
      (await getPrisma().player.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((p) => p.id),
    );
    for (let i = 0; i < all.length; i += 17) expect(await read(all[i])).toEqual(all.slice(i + 1));
    const book = await read(undefined, MANAGER);
    expect(await read(book[3], MANAGER)).toEqual(book.slice(4));
    expect(await read(all.at(-1))).toEqual([]);
  });
});
