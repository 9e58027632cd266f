import { describe, expect, it } from "vitest";
import {
  bestMatch,
  isPartialEmail,
  looksLikeId,
  moveHighlight,
  noMatchText,
  resultHref,
  searchLabel,
  searchStatus,
} from "./player-search.ts";

const players = (...ids: string[]) => ids.map((id) => ({ id }));

describe("Enter without a highlighted result", () => {
  it("opens an exact id (any case), else a single match, else a typed id; highlights the first of several", () => {
    expect(bestMatch("p000007", players("P000070", "P000007"))).toEqual({ open: "P000007" });
    expect(bestMatch("silva", players("P000012"))).toEqual({ open: "P000012" });
    expect(bestMatch("P999999", [])).toEqual({ open: "P999999" });
    expect(bestMatch("silva", players("P000012", "P000013"))).toEqual({ highlight: 0 });
    expect(bestMatch("silva", [])).toBeNull();
  });

  it("a transaction id alone opens its player's transactions on it; beside players it is one result more", () => {
    const t = [{ id: "TX-9", player_id: "P000007" }];
    expect(bestMatch("tx-9", [], t)).toEqual({ open: "P000007", transactionId: "TX-9" });
    expect(bestMatch("tx-9", players("P000012"), t)).toEqual({ highlight: 0 });
    expect(resultHref("P000007", "TX-9")).toBe("/players/P000007?section=transactions&transaction_id=TX-9");
    expect(resultHref("P 1")).toBe("/players/P%201");
  });

  it("takes as an id only text without spaces or @ that holds a digit", () => {
    expect(["P000007", "7", "abc1"].map(looksLikeId)).toEqual([true, true, true]);
    expect(["Silva", "P 7", "a7@example.com", ""].map(looksLikeId)).toEqual([false, false, false, false]);
  });
});

describe("the highlight under the arrow keys", () => {
  it("wraps both ways; Home and End only once a result is highlighted; nothing without results", () => {
    expect([-1, 0, 2].map((i) => moveHighlight("ArrowDown", i, 3))).toEqual([0, 1, 0]);
    expect([-1, 0, 2].map((i) => moveHighlight("ArrowUp", i, 3))).toEqual([2, 2, 1]);
    expect([moveHighlight("Home", 2, 3), moveHighlight("End", 0, 3)]).toEqual([0, 2]);
    expect([moveHighlight("Home", -1, 3), moveHighlight("End", -1, 3)]).toEqual([null, null]);
    expect([moveHighlight("ArrowDown", -1, 0), moveHighlight("a", 0, 3)]).toEqual([null, null]);
  });
});

describe("the status line", () => {
  const base = { listing: true, failed: false, shown: 0, partialEmail: false, mine: false, term: "silva" };

  it("says what the list shows, and nothing before typing", () => {
    expect(searchStatus({ ...base, listing: false, total: undefined })).toBe("");
    expect(searchStatus({ ...base, failed: true, total: 3 })).toBe("The search failed.");
    expect(searchStatus({ ...base, total: undefined })).toBe("Searching…");
    expect(searchStatus({ ...base, total: 1, shown: 1 })).toBe("1 player found.");
    expect(searchStatus({ ...base, total: 1234, shown: 20 })).toBe(
      "Showing the first 20 of 1,234 players. Type more to narrow the search.",
    );
  });

  it("explains an empty result: no match, no assigned players, or a part of an e-mail address", () => {
    expect(searchStatus({ ...base, total: 0 })).toBe("No players match “silva”.");
    expect(searchStatus({ ...base, total: 0, mine: true, term: "" })).toBe("No players are assigned to you.");
    expect(searchStatus({ ...base, total: 0, partialEmail: true, term: "a@b" })).toBe(
      "Type the whole e-mail address: a part of one matches nobody.",
    );
    expect(noMatchText({ mine: true, term: "x", canSearchEmail: false })).toBe(
      "No player of yours has an id or name containing “x”, and no transaction has that id.",
    );
    expect(noMatchText({ mine: false, term: "x", canSearchEmail: true })).toBe(
      "No player has an id, name or e-mail address containing “x”, and no transaction has that id.",
    );
    expect(noMatchText({ mine: false, term: "a@b.c", canSearchEmail: false })).toBe(
      "No player has exactly the e-mail address “a@b.c”.",
    );
    expect(noMatchText({ mine: false, term: "+44 7700 900189", canSearchEmail: false })).toBe(
      "No player has the phone number “+44 7700 900189”, and no id or name contains it.",
    );
  });
});

describe("what the lookup says it searches", () => {
  it("in words an agent uses, not scopes", () => {
    expect(searchLabel({ mine: false, canSearchEmail: false })).toBe(
      "Search by name, player ID, or an exact e-mail or phone number",
    );
    expect(searchLabel({ mine: false, canSearchEmail: true })).toMatch(/^Search by name, player ID, e-mail/);
    expect(searchLabel({ mine: true, canSearchEmail: false })).toBe("Filter my players by name or player ID");
    expect(searchLabel({ mine: false, canSearchEmail: true })).not.toMatch(/pii|scope/);
  });

  it("a part of an address is one with an @ that is not whole", () => {
    expect(["zoe.cote7@", "@example.com", "a@b@c"].map(isPartialEmail)).toEqual([true, true, true]);
    expect(["zoe.cote7@example.com", "silva"].map(isPartialEmail)).toEqual([false, false]);
  });
});
