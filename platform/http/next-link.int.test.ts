import { describe, expect, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";

/*
 * `Link: <…>; rel="next"` on every paged answer (platform/http/next-link.ts): following it from the first page to the
 * last gives the same rows as paging by hand with the documented parameters, keeps every other parameter of the
 * request, and is absent on the last page. For the transaction list (by offset and by cursor), the search, both
 * audit trails and the change feed.
 */

const kit = routeKitForFile();
const admin = await kitToken("admin-next-link", { roles: ["admin"] });

/** The target of `rel="next"` in a Link header; null when there is none. */
function nextOf(link: string | null): string | null {
  return /<([^>]*)>\s*;\s*rel="next"/.exec(link ?? "")?.[1] ?? null;
}

interface Followed {
  /** Each page's body, in order. */
  pages: Record<string, unknown>[];
  /** Each page's next link (null on the last). */
  links: (string | null)[];
}

/** Reads `path` and every page its Link headers lead to. */
async function follow(path: string, token?: string): Promise<Followed> {
  const followed: Followed = { pages: [], links: [] };
  let next: string | null = path;
  while (next !== null) {
    expect(followed.pages.length, "more pages than the list holds").toBeLessThan(60);
    const res = await kit.call("GET", next, { token });
    expect(res.status, `${next}: ${res.text}`).toBe(200);
    followed.pages.push(res.json as Record<string, unknown>);
    next = nextOf(res.headers.get("link"));
    followed.links.push(next);
  }
  return followed;
}

/** Every query parameter of `link` but `changed` is the request's own, in the same order. */
function expectSameParameters(request: string, link: string, changed: readonly string[]): void {
  const a = new URL(request, "http://x");
  const b = new URL(link, "http://x");
  expect(b.pathname).toBe(a.pathname);
  const keep = (u: URL) => [...u.searchParams].filter(([k]) => !changed.includes(k));
  expect(keep(b)).toEqual(keep(a));
}

const idsOf = (pages: Record<string, unknown>[], key: string, field = "id") =>
  pages.flatMap((p) => (p[key] as Record<string, unknown>[]).map((row) => row[field]));

describe("Link rel=next on the transaction list", () => {
  const base = `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions`;

  it("by offset: followed to the end it lists what offset paging by hand lists, and is absent on the last page", async () => {
    const first = `${base}?sort=amount_desc&limit=3`;
    const followed = await follow(first);
    expect(followed.pages.length).toBeGreaterThan(2);
    expect(followed.links.at(-1)).toBeNull();
    expect(followed.pages.at(-1)?.has_more).toBe(false);
    for (const link of followed.links.slice(0, -1)) expectSameParameters(first, link ?? "", ["offset"]);

    const byHand: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 3) {
      const res = await kit.call("GET", `${base}?sort=amount_desc&limit=3&offset=${offset}`);
      byHand.push(res.json as Record<string, unknown>);
      if (!(res.json as { has_more: boolean }).has_more) break;
    }
    expect(idsOf(followed.pages, "transactions")).toEqual(idsOf(byHand, "transactions"));
    expect(new Set(idsOf(byHand, "transactions")).size).toBe((byHand[0] as { total: number }).total);
  });

  it("by cursor: the link carries next_cursor as cursor, keeping the filters", async () => {
    const start = (await kit.call("GET", `${base}?limit=2`)).json as { next_cursor: string };
    const first = `${base}?limit=2&cursor=${encodeURIComponent(start.next_cursor)}`;
    const followed = await follow(first);
    expect(followed.pages.length).toBeGreaterThan(1);
    expect(followed.links.at(-1)).toBeNull();
    for (const [i, link] of followed.links.slice(0, -1).entries()) {
      expectSameParameters(first, link ?? "", ["cursor"]);
      expect(new URL(link ?? "", "http://x").searchParams.get("cursor")).toBe(followed.pages[i]?.next_cursor);
    }
    const byHand: Record<string, unknown>[] = [];
    let cursor: string | null = start.next_cursor;
    while (cursor !== null) {
      const res = await kit.call("GET", `${base}?limit=2&cursor=${encodeURIComponent(cursor)}`);
      byHand.push(res.json as Record<string, unknown>);
      cursor = (res.json as { next_cursor: string | null }).next_cursor;
    }
    expect(idsOf(followed.pages, "transactions")).toEqual(idsOf(byHand, "transactions"));
  });

  it("a single page has no Link", async () => {
    const res = await kit.call("GET", `${base}?limit=100`);
    expect((res.json as { has_more: boolean }).has_more).toBe(false);
    expect(res.headers.get("link")).toBeNull();
  });
});

describe("Link rel=next on the search", () => {
  it("followed to the end it lists every player offset paging lists, keeping q and limit", async () => {
    const first = "/api/v1/players?limit=40&q=p";
    const followed = await follow(first);
    expect(followed.pages.length).toBeGreaterThan(2);
    expect(followed.links.at(-1)).toBeNull();
    for (const link of followed.links.slice(0, -1)) expectSameParameters(first, link ?? "", ["offset"]);
    const total = (followed.pages[0] as { total: number }).total;
    const byHand: Record<string, unknown>[] = [];
    for (let offset = 0; offset < total; offset += 40) {
      byHand.push((await kit.call("GET", `/api/v1/players?limit=40&q=p&offset=${offset}`)).json as never);
    }
    expect(idsOf(followed.pages, "players")).toEqual(idsOf(byHand, "players"));
    expect(idsOf(followed.pages, "players")).toHaveLength(total);
  });
});

describe("Link rel=next on the audit trails", () => {
  it("the player's trail and the whole trail: followed to the end, the rows cursor paging gives", async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await kit.call("GET", `/api/v1/players/${FIXTURE_PLAYER_ID}`)).status).toBe(200);
    }
    await getAuditQueue().flush();
    for (const first of [
      `/api/v1/players/${FIXTURE_PLAYER_ID}/audit?operation=profile&limit=2`,
      `/api/v1/audit?player_id=${FIXTURE_PLAYER_ID}&operation=profile&limit=2`,
    ]) {
      const followed = await follow(first, admin);
      expect(followed.pages.length, first).toBeGreaterThan(2);
      expect(followed.links.at(-1)).toBeNull();
      for (const link of followed.links.slice(0, -1)) expectSameParameters(first, link ?? "", ["cursor"]);
      const byHand: Record<string, unknown>[] = [];
      let cursor: string | null = null;
      do {
        const path: string = cursor === null ? first : `${first}&cursor=${encodeURIComponent(cursor)}`;
        const res = await kit.call("GET", path, { token: admin });
        byHand.push(res.json as Record<string, unknown>);
        cursor = (res.json as { next_cursor: string | null }).next_cursor;
      } while (cursor !== null);
      expect(idsOf(followed.pages, "events")).toEqual(idsOf(byHand, "events"));
      expect(idsOf(byHand, "events").length).toBeGreaterThanOrEqual(5);
    }
  });
});

describe("Link rel=next on the change feed", () => {
  it("followed to the tail it lists what following next by hand lists, with feed; absent at the tail", async () => {
    const { tail, feed } = (await kit.call("GET", "/api/v1/changes?limit=1")).json as {
      tail: number;
      feed: string;
    };
    const after = Math.max(0, tail - 9);
    const first = `/api/v1/changes?after=${after}&limit=2`;
    const followed = await follow(first);
    expect(followed.pages.length).toBeGreaterThan(2);
    expect(followed.links.at(-1)).toBeNull();
    expect(followed.pages.at(-1)?.has_more).toBe(false);
    for (const [i, link] of followed.links.slice(0, -1).entries()) {
      const params = new URL(link ?? "", "http://x").searchParams;
      expect(params.get("after")).toBe(String(followed.pages[i]?.next));
      expect(params.get("feed")).toBe(feed);
      expect(params.get("limit")).toBe("2");
    }
    const byHand: Record<string, unknown>[] = [];
    let position = after;
    for (;;) {
      const page = (await kit.call("GET", `/api/v1/changes?after=${position}&limit=2`)).json as {
        next: number;
        has_more: boolean;
      };
      byHand.push(page as never);
      if (!page.has_more) break;
      position = page.next;
    }
    expect(idsOf(followed.pages, "changes", "position")).toEqual(idsOf(byHand, "changes", "position"));
    expect(idsOf(byHand, "changes", "position")).toHaveLength(tail - after);
  });
});
