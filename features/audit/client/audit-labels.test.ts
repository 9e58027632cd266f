import { describe, expect, it } from "vitest";
import type { AuditEvent } from "@/features/audit/schema/audit";
import {
  describeEntry,
  describeFilters,
  describeOperation,
  describeReader,
  formatAuditTime,
  groupAuditEvents,
} from "./audit-labels.ts";

let seq = 1000;
function read(at: string, over: Partial<AuditEvent> = {}): AuditEvent {
  seq -= 1;
  return {
    id: String(seq),
    occurred_at: `2026-11-23T20:00:${at}Z`,
    subject: "u-sarah",
    subject_name: "Sarah Mitchell",
    auth_mode: "demo",
    scopes: ["players:read"],
    session_id: "s1",
    operation: "profile",
    player_id: "P1",
    result_player_ids: [],
    filters: {},
    request_id: `r${seq}`,
    client_request_id: null,
    client_address: null,
    text_replaced: false,
    ...over,
  };
}
const ops = (events: AuditEvent[]) => events.map((e) => e.operation);

describe("audit trail labels", () => {
  it("describes a request's parameters compactly", () => {
    expect(describeFilters({ event_type: ["bet", "win"], limit: "5" })).toBe("event_type=bet,win · limit=5");
    expect(describeFilters({})).toBe("—");
  });

  it("names each operation in words", () => {
    expect(describeOperation("profile")).toBe("Viewed profile");
    expect(describeOperation("audit_trail")).toBe("Viewed the audit trail");
  });

  it("shows times to the second in the page's time zone", () => {
    expect(formatAuditTime("2026-11-23T20:41:07.123Z", "utc")).toMatch(/23.*2026.*20:41:07/);
  });

  it("names the person, with the subject beside; the subject alone when the token named nobody", () => {
    expect(describeReader({ subject: "demo-vip-manager", subject_name: "Sarah Mitchell" })).toEqual({
      name: "Sarah Mitchell",
      subject: "demo-vip-manager",
    });
    expect(describeReader({ subject: "client-7", subject_name: null })).toEqual({
      name: "client-7",
      subject: null,
    });
  });
});

describe("groupAuditEvents: one entry per page view", () => {
  it("groups a page load's reads, newest first, and names them in a fixed order, not of arrival", () => {
    // Parallel reads arrive in any order: here the profile was recorded last.
    const events = [
      read("01.900", { operation: "profile" }),
      read("01.400", { operation: "transaction_facets" }),
      read("01.200", { operation: "transactions" }),
      read("01.000", { operation: "monthly_activity" }),
    ];
    const entries = groupAuditEvents(events);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.id).toBe(events[0]?.id);
    expect(ops(entries[0]?.events ?? [])).toEqual([
      "profile",
      "transaction_facets",
      "transactions",
      "monthly_activity",
    ]);
    expect(describeEntry(entries[0] ?? { id: "", events: [] })).toBe(
      "Viewed the profile: profile, transactions, facets, activity",
    );
  });

  it("splits by subject, session and player, and at the window's edge (2 s from the entry's newest read)", () => {
    const events = [
      read("05.000", { operation: "transactions" }),
      read("04.999", { operation: "transactions", session_id: "s2" }),
      read("04.500", { operation: "transactions", subject: "u-tom", subject_name: "Tom Becker" }),
      read("04.000", { operation: "transactions", player_id: "P2" }),
      read("03.000", { operation: "transaction_facets" }),
      read("03.000", { operation: "profile" }), // exactly 2 s: still the same view
      read("02.999", { operation: "profile" }), // 2.001 s: a new entry
    ];
    const entries = groupAuditEvents(events);
    expect(entries.map((e) => e.events.length)).toEqual([3, 1, 1, 1, 1]);
    // Reads of others in between do not split a view.
    expect(entries[0]?.events.map((e) => e.occurred_at.slice(17, 23))).toEqual([
      "05.000",
      "03.000",
      "03.000",
    ]);
    expect(describeEntry(entries[1] ?? { id: "", events: [] })).toBe("Listed transactions");
  });

  it("says how many when one view made several reads of one kind", () => {
    const [entry] = groupAuditEvents([read("01.500"), read("01.000")]);
    expect(describeEntry(entry ?? { id: "", events: [] })).toBe("Viewed profile (2 reads)");
  });

  it("keeps the rows already shown when the next page loads (an entry cut by a page end grows)", () => {
    const events = Array.from({ length: 9 }, (_, i) =>
      read(`0${9 - i}.${i % 3 === 0 ? "000" : "500"}`, { operation: i % 2 ? "transactions" : "profile" }),
    );
    const whole = groupAuditEvents(events);
    for (let cut = 1; cut < events.length; cut++) {
      const firstPage = groupAuditEvents(events.slice(0, cut));
      // Rows already shown keep their identity: the first page's entries are a prefix by id.
      expect(whole.slice(0, firstPage.length).map((e) => e.id)).toEqual(firstPage.map((e) => e.id));
    }
  });
});
