import { describe, expect, it } from "vitest";
import { availablePlayerSections, resolvePlayerSection, tabAfterKey } from "./player-sections.ts";

const search = (q = "") => new URLSearchParams(q);

describe("resolvePlayerSection", () => {
  it("shows the section the URL names", () => {
    expect(resolvePlayerSection("activity", { audit: false, search: search() })).toBe("activity");
    expect(resolvePlayerSection("overview", { audit: false, search: search("event_type=bet") })).toBe(
      "overview",
    );
  });

  it("opens a link with transaction filters on the table, any other link on the overview", () => {
    expect(resolvePlayerSection(null, { audit: false, search: search("event_type=deposit") })).toBe(
      "transactions",
    );
    expect(resolvePlayerSection(null, { audit: false, search: search("page=2") })).toBe("transactions");
    expect(resolvePlayerSection(null, { audit: true, search: search("tz=local") })).toBe("overview");
    expect(resolvePlayerSection(null, { audit: true, search: search("period=90d") })).toBe("overview");
  });

  it("counts every parameter of the table's view, the sort, status and id lookup included", () => {
    for (const qs of [
      "sort=amount_desc",
      "status=pending",
      "transaction_id=T1",
      "per_page=50",
      "to=2026-01-01",
    ]) {
      expect(resolvePlayerSection(null, { audit: false, search: search(qs) })).toBe("transactions");
    }
  });

  it("gives Audit only to those who have it", () => {
    expect(resolvePlayerSection("audit", { audit: true, search: search() })).toBe("audit");
    expect(resolvePlayerSection("audit", { audit: false, search: search() })).toBe("overview");
    expect(availablePlayerSections(false)).toEqual(["overview", "transactions", "activity"]);
    expect(availablePlayerSections(true)).toEqual(["overview", "transactions", "activity", "audit"]);
  });
});

describe("tabAfterKey", () => {
  const tabs = ["overview", "transactions", "activity"];
  it("moves to the next or previous tab with the arrows, wrapping round", () => {
    expect(tabAfterKey(tabs, 0, "ArrowRight")).toBe("transactions");
    expect(tabAfterKey(tabs, 2, "ArrowRight")).toBe("overview");
    expect(tabAfterKey(tabs, 1, "ArrowLeft")).toBe("overview");
    expect(tabAfterKey(tabs, 0, "ArrowLeft")).toBe("activity");
  });

  it("moves to the first and last with Home and End, and nowhere with other keys", () => {
    expect(tabAfterKey(tabs, 1, "Home")).toBe("overview");
    expect(tabAfterKey(tabs, 1, "End")).toBe("activity");
    expect(tabAfterKey(tabs, 1, "Enter")).toBeUndefined();
    expect(tabAfterKey(tabs, 1, "toString")).toBeUndefined();
  });
});
