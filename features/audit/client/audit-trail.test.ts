import { InfiniteQueryObserver, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { AUDIT_OPERATIONS } from "@/platform/schemas/enums";
import { ApiRequestError, readApiResponse } from "../../../platform/client/api-client.ts";
import { WIRE_DECIMALS } from "../../../platform/client/wire-decimals.ts";
import {
  AUDIT_DENIED_DETAIL,
  auditLogSearchParams,
  auditTrailSearchParams,
  describeAuditTrailError,
  readersHeadline,
  toAuditLogFilter,
} from "./audit-trail.ts";
import { type AuditEventData, type AuditListData, auditQueries } from "./queries.ts";

const json = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "application/json", ...headers } });

function event(id: string): AuditEventData {
  return {
    id,
    occurred_at: "2026-11-23T20:00:00.000Z",
    subject: "admin",
    subject_name: "Alex Admin",
    auth_mode: "jwt",
    scopes: ["audit:read"],
    session_id: "s1",
    operation: "profile",
    player_id: "P1",
    result_player_ids: [],
    filters: {},
    request_id: `r${id}`,
    client_request_id: null,
    client_address: null,
    text_replaced: false,
  };
}

const page = (ids: string[], total: number, next: string | null): AuditListData => ({
  events: ids.map(event),
  total,
  limit: 2,
  next_cursor: next,
  has_more: next !== null,
});

/**
 * auditQueries.auditTrail in a real QueryClient, as useInfiniteQuery runs it, with the network step replaced
 * by `answer` (the page param it was asked for in, a page out); `asked` records the page params.
 */
function observe(
  client: QueryClient,
  filter: Parameters<typeof auditQueries.auditTrail>[1],
  answer: (cursor: string | null) => Promise<AuditListData>,
  asked: (string | null)[] = [],
) {
  return new InfiniteQueryObserver(client, {
    ...auditQueries.auditTrail("P1", filter),
    queryFn: ({ pageParam }) => {
      asked.push(pageParam);
      return answer(pageParam);
    },
  });
}

describe("audit trail query", () => {
  it("builds the operation's query string with paging and filters", () => {
    expect(auditTrailSearchParams({}).toString()).toBe("");
    expect(auditTrailSearchParams({ limit: 25, operations: ["profile", "search"] }, "42").toString()).toBe(
      "limit=25&operation=profile%2Csearch&cursor=42",
    );
  });

  it("keys each filter apart, without the cursor", () => {
    const all = auditQueries.auditTrail("P1", { limit: 25 }).queryKey;
    const profile = auditQueries.auditTrail("P1", { limit: 25, operations: ["profile"] }).queryKey;
    expect(all).toEqual(["player", "P1", "audit", "limit=25"]);
    expect(profile).not.toEqual(all);
  });

  it("follows next_cursor and reads the loaded pages as one list", async () => {
    const client = new QueryClient();
    const asked: (string | null)[] = [];
    const pages: Record<string, AuditListData> = {
      first: page(["5", "4"], 5, "4"),
      "4": page(["3", "2"], 6, "2"),
      "2": page(["1"], 6, null),
    };
    const observer = observe(
      client,
      { limit: 2 },
      async (cursor) => pages[cursor ?? "first"] as AuditListData,
      asked,
    );
    const unsubscribe = observer.subscribe(() => {});
    try {
      await observer.refetch();
      expect(observer.getCurrentResult().data).toEqual({
        events: pages.first?.events,
        total: 5,
        nextCursor: "4",
      });
      expect(observer.getCurrentResult().hasNextPage).toBe(true);
      await observer.fetchNextPage();
      const second = await observer.fetchNextPage();
      expect(asked.slice(-3)).toEqual([null, "4", "2"]);
      // Every event once, in order; the total is the newest page's (events recorded while paging).
      expect(second.data?.events.map((e) => e.id)).toEqual(["5", "4", "3", "2", "1"]);
      expect(second.data?.total).toBe(6);
      expect(second.data?.nextCursor).toBeNull();
      expect(second.hasNextPage).toBe(false);
    } finally {
      unsubscribe();
      client.clear();
    }
  });

  it("never shows a superseded filter's late answer under the new filter", async () => {
    const client = new QueryClient();
    let answerAll: (p: AuditListData) => void = () => {};
    const slowAll = new Promise<AuditListData>((resolve) => {
      answerAll = resolve;
    });
    const observer = observe(client, { limit: 2 }, () => slowAll);
    const unsubscribe = observer.subscribe(() => {});
    try {
      observer.setOptions({
        ...auditQueries.auditTrail("P1", { limit: 2, operations: ["export"] }),
        queryFn: async () => page(["9"], 1, null),
      });
      await observer.refetch();
      answerAll(page(["5", "4"], 5, "4"));
      await slowAll;
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(observer.getCurrentResult().data?.events.map((e) => e.id)).toEqual(["9"]);
    } finally {
      unsubscribe();
      client.clear();
    }
  });
});

describe("reading the audit operation's answers", () => {
  it("parses a page as sent: ids past 2^53 and number-like parameters stay strings", async () => {
    const body =
      '{"events":[{"id":"9007199254740993","filters":{"amount_min":"0.10000000","limit":"5"}}],' +
      '"total":12,"limit":25,"next_cursor":"9007199254740993","has_more":true}';
    const parsed = await readApiResponse<AuditListData>(json(200, body), WIRE_DECIMALS.auditList);
    expect(parsed.events[0]?.id).toBe("9007199254740993");
    expect(parsed.events[0]?.filters).toEqual({ amount_min: "0.10000000", limit: "5" });
    expect(parsed.total).toBe(12);
    expect(parsed.next_cursor).toBe("9007199254740993");
  });

  it("turns problem answers into errors with the request id, a 403 in words", async () => {
    const denied = readApiResponse(
      json(403, '{"title":"Forbidden","detail":"scope","request_id":"req-1"}', {
        "content-type": "application/problem+json",
      }),
      WIRE_DECIMALS.auditList,
    );
    await expect(denied).rejects.toBeInstanceOf(ApiRequestError);
    const error = await denied.catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, requestId: "req-1", detail: "scope" });
    expect(describeAuditTrailError(error)).toEqual({ message: AUDIT_DENIED_DETAIL, requestId: "req-1" });

    const unavailable = await readApiResponse(
      new Response("oops", { status: 503, headers: { "x-request-id": "r2" } }),
      WIRE_DECIMALS.auditList,
    ).catch((e: unknown) => e);
    expect(unavailable).toMatchObject({ status: 503, requestId: "r2" });
    expect(describeAuditTrailError(unavailable)).toEqual({
      message: "The server answered 503.",
      requestId: "r2",
    });
  });

  it("shows what any other failure says, without a request id", () => {
    expect(describeAuditTrailError(new TypeError("Failed to fetch"))).toEqual({
      message: "Failed to fetch",
      requestId: null,
    });
  });
});

describe("the audit page's URL state → API query", () => {
  it("sends only the filters set, days as the chosen zone's first and last millisecond", () => {
    const none = { user: null, player: null, operation: null, from: null, to: null, audit_reads: true };
    expect(auditLogSearchParams(toAuditLogFilter(none, "utc", 50)).toString()).toBe("limit=50");
    const all = {
      user: " demo-admin ",
      player: "P000042",
      operation: "export" as const,
      from: "2026-11-01",
      to: "2026-11-23",
      audit_reads: null,
    };
    expect(auditLogSearchParams(toAuditLogFilter(all, "utc", 50), "99").toString()).toBe(
      "limit=50&user=demo-admin&player_id=P000042&operation=export&from_date=2026-11-01T00%3A00%3A00.000Z&to_date=2026-11-23T23%3A59%3A59.999Z&cursor=99",
    );
    // A hand-edited URL with a malformed day is ignored rather than sent (the API would answer 400).
    expect(auditLogSearchParams(toAuditLogFilter({ ...none, from: "yesterday" }, "utc", 5)).toString()).toBe(
      "limit=5",
    );
  });

  it("says who read a player in one sentence", () => {
    const r = (reads: number) => ({
      subject: "s",
      subject_name: null,
      reads,
      last_read_at: "2026-11-26T00:00:00.000Z",
    });
    expect(readersHeadline("P000007", [])).toBe("Nobody read P000007's data under these filters.");
    expect(readersHeadline("P000007", [r(1)])).toBe("P000007 was read by 1 user, once.");
    expect(readersHeadline("P000007", [r(12), r(2)])).toBe("P000007 was read by 2 users, 14 times.");
  });

  it("leaves admins' reads of the trail out unless asked for; a chosen operation is sent as it is", () => {
    const hidden = { user: null, player: null, operation: null, from: null, to: null, audit_reads: null };
    const sent = auditLogSearchParams(toAuditLogFilter(hidden, "utc", 5))
      .get("operation")
      ?.split(",");
    expect(sent).toEqual(AUDIT_OPERATIONS.filter((op) => op !== "audit_trail"));
    expect(sent).toContain("profile");
    expect(
      auditLogSearchParams(toAuditLogFilter({ ...hidden, audit_reads: true }, "utc", 5)).has("operation"),
    ).toBe(false);
    expect(
      auditLogSearchParams(toAuditLogFilter({ ...hidden, operation: "audit_trail" }, "utc", 5)).get(
        "operation",
      ),
    ).toBe("audit_trail");
  });
});
