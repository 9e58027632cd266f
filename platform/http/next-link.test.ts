import { describe, expect, it } from "vitest";
import { cursorNextPage, nextLinkHeaders, nextPageUrl, offsetNextPage } from "./next-link.ts";

/* The next page's URL: the request's own parameters kept as written, only the paging ones changed. */

const at = (pathAndQuery: string) => new URL(pathAndQuery, "http://localhost");

describe("nextPageUrl", () => {
  it("keeps the other parameters as the client wrote them (commas, repeats, escapes) and changes the paging one", () => {
    const url = at(
      "/api/v1/players/P1/transactions?event_type=bet,win&event_name=Card%20Deposit&status=pending&status=completed&offset=20&limit=20",
    );
    expect(nextPageUrl(url, { offset: "40" })).toBe(
      "/api/v1/players/P1/transactions?event_type=bet,win&event_name=Card%20Deposit&status=pending&status=completed&limit=20&offset=40",
    );
  });

  it("drops a parameter set to null and escapes a new value", () => {
    const url = at("/api/v1/players/P1/transactions?limit=2&offset=0");
    expect(nextPageUrl(url, { cursor: "a+b/c=", offset: null })).toBe(
      "/api/v1/players/P1/transactions?limit=2&cursor=a%2Bb%2Fc%3D",
    );
  });

  it("matches a parameter by its decoded name, and works from searchParams alone", () => {
    expect(nextPageUrl(at("/api/v1/changes?%61fter=3&limit=2"), { after: "5" })).toBe(
      "/api/v1/changes?limit=2&after=5",
    );
    const bare = { pathname: "/api/v1/changes", searchParams: new URLSearchParams("limit=2") };
    expect(nextPageUrl(bare, { after: "5" })).toBe("/api/v1/changes?limit=2&after=5");
  });
});

describe("the Link header and the page shapes", () => {
  it("is rel=next while more follow, absent on the last page", () => {
    const url = at("/api/v1/players?q=a&limit=2");
    expect(nextLinkHeaders(url, offsetNextPage({ has_more: true, offset: 0, limit: 2 }))).toEqual({
      Link: '</api/v1/players?q=a&limit=2&offset=2>; rel="next"',
    });
    expect(nextLinkHeaders(url, offsetNextPage({ has_more: false, offset: 0, limit: 2 }))).toEqual({});
    expect(cursorNextPage({ has_more: true, next_cursor: "c1" })).toEqual({ cursor: "c1", offset: null });
    expect(cursorNextPage({ has_more: false, next_cursor: null })).toBeNull();
  });
});
