import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "@/platform/schemas/enums";
import type { TransactionFacetsData } from "./queries.ts";
import * as filters from "./transaction-filter-options.ts";

const FACETS = {
  event_types: [{ value: "deposit", count: 12 }],
  event_names: [{ value: "Card deposit", count: 7, event_types: ["deposit", "withdrawal"] }],
  created_by: [{ value: "system", count: 40 }],
} as unknown as TransactionFacetsData;

describe("transaction filter options", () => {
  it("offers every event type, counted once the facets are in", () => {
    expect(filters.eventTypeOptions(undefined).map((o) => o.value)).toEqual([...EVENT_TYPES]);
    expect(filters.eventTypeOptions(undefined).every((o) => o.count === undefined)).toBe(true);
    const withFacets = filters.eventTypeOptions(FACETS);
    expect(withFacets.find((o) => o.value === "deposit")).toMatchObject({ label: "Deposit", count: 12 });
    expect(withFacets.find((o) => o.value === "bet")?.count).toBeUndefined();
  });

  it("offers the player's event names with their types as a hint", () => {
    expect(filters.eventNameOptions(undefined)).toEqual([]);
    expect(filters.eventNameOptions(FACETS)).toEqual([
      { value: "Card deposit", label: "Card deposit", count: 7, hint: "Deposit, Withdrawal" },
    ]);
  });

  it("keeps the URL's creator choosable even when the player has none of theirs", () => {
    expect(filters.creatorChoices(FACETS, null)).toEqual([{ value: "system", count: 40 }]);
    expect(filters.creatorChoices(FACETS, "system")).toEqual([{ value: "system", count: 40 }]);
    expect(filters.creatorChoices(FACETS, "agent-7")).toEqual([
      { value: "system", count: 40 },
      { value: "agent-7", count: 0 },
    ]);
    expect(filters.creatorChoices(undefined, "agent-7")).toEqual([{ value: "agent-7", count: 0 }]);
  });

  it("marks a preset pressed only for its exact range, in the chosen time zone", () => {
    const now = new Date("2026-03-10T12:00:00Z");
    expect(filters.isPresetActive({ from: "2026-03-04", to: "2026-03-10" }, 7, "utc", now)).toBe(true);
    expect(filters.isPresetActive({ from: "2026-03-03", to: "2026-03-10" }, 7, "utc", now)).toBe(false);
    expect(filters.isPresetActive({ from: "2026-03-04", to: null }, 7, "utc", now)).toBe(false);
    expect(filters.isPresetActive({ from: null, to: null }, 7, "utc", now)).toBe(false);
  });
});

describe("transaction filter menus", () => {
  it("offers anyone, then each creator with the count, the URL's own creator too", () => {
    expect(filters.creatorOptions(undefined, null)).toEqual([{ value: "", label: "Anyone" }]);
    expect(filters.creatorOptions(FACETS, "agent.smith")).toEqual([
      { value: "", label: "Anyone" },
      { value: "system", label: "system (40)" },
      { value: "agent.smith", label: "agent.smith (0)" },
    ]);
  });

  it("offers any status, then each in words; the sort orders capitalised", () => {
    expect(filters.STATUS_OPTIONS[0]).toEqual({ value: "", label: "Any" });
    expect(filters.STATUS_OPTIONS).toContainEqual({ value: "pending", label: "Pending" });
    expect(filters.STATUS_OPTIONS).toContainEqual({ value: "completed", label: "Completed" });
    expect(filters.SORT_OPTIONS).toContainEqual({ value: "date_desc", label: "Newest first" });
    expect(filters.SORT_OPTIONS.every((o) => /^[A-Z]/.test(o.label))).toBe(true);
  });

  it("reads a menu's value back: no status filter and the default order for anything else", () => {
    expect(filters.statusOf("pending")).toBe("pending");
    expect(filters.statusOf("")).toBeNull();
    expect(filters.statusOf("bogus")).toBeNull();
    expect(filters.sortOf("amount_asc")).toBe("amount_asc");
    expect(filters.sortOf("bogus")).toBe("date_desc");
  });
});
