import { describe, expect, it } from "vitest";
import { redirectOnSite, safeCallbackPath, signInPath, sitePath } from "./paths.ts";

/** What a browser does with a Location header value on this site: the URL it goes to. */
const followed = (location: string) => new URL(location, "http://localhost:3000/sign-in").href;

const HOSTILE = [
  "/\t/evil.example/phish", // browsers drop the tab: //evil.example/phish
  "/\n/evil.example",
  "/\r/evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "//evil.example",
  "/\\evil.example",
  "https://evil.example/",
  "http:evil.example",
  "javascript:alert(1)",
  "/x\u0000",
  "",
];

describe("safeCallbackPath", () => {
  it("never leads a browser off this site, whatever the callbackUrl", () => {
    for (const value of HOSTILE) {
      const path = safeCallbackPath(value);
      expect(new URL(followed(path)).host, JSON.stringify(value)).toBe("localhost:3000");
    }
    expect(safeCallbackPath("/\t/evil.example/phish")).toBe("/");
    expect(safeCallbackPath("/.//evil.example")).toBe("/");
  });

  it("keeps a path on this site as the browser will read it, query and fragment included", () => {
    expect(safeCallbackPath("/players/P000007?event_type=bet#audit")).toBe(
      "/players/P000007?event_type=bet#audit",
    );
    expect(safeCallbackPath("/players/../audit")).toBe("/audit");
    expect(safeCallbackPath("/players/Zoé")).toBe("/players/Zo%C3%A9");
    expect(safeCallbackPath("/sign-in/../sign-in?callbackUrl=/x")).toBe("/");
  });
});

describe("redirectOnSite (next-auth's redirect callback)", () => {
  const baseUrl = "http://localhost:3000";

  it("follows paths and absolute URLs on this origin, and nothing else", () => {
    expect(redirectOnSite({ url: "/players/P1", baseUrl })).toBe("http://localhost:3000/players/P1");
    expect(redirectOnSite({ url: "http://localhost:3000/sign-in", baseUrl })).toBe(
      "http://localhost:3000/sign-in",
    );
    for (const url of [
      ...HOSTILE,
      "http://localhost:3000.evil.example/",
      "http://localhost:3001/",
      "not a url",
    ]) {
      expect(redirectOnSite({ url, baseUrl }), JSON.stringify(url)).toBe(baseUrl);
    }
  });

  it("never throws, unlike next-auth's default on a value that is not a URL (a 500)", () => {
    expect(sitePath("ht!tp:garbage", baseUrl)).toBeNull();
    expect(redirectOnSite({ url: "ht!tp:garbage", baseUrl })).toBe(baseUrl);
  });
});

describe("signInPath: the way back, and why", () => {
  it("keeps the view's path and query, says the session expired, and stays a path on this site", () => {
    const back = "/players/P000007?section=transactions&event_type=deposit&from=2026-01-01";
    const path = signInPath(back, "expired");
    expect(path).toBe(
      "/sign-in?callbackUrl=%2Fplayers%2FP000007%3Fsection%3Dtransactions%26event_type%3Ddeposit%26from%3D2026-01-01&reason=expired",
    );
    const url = new URL(path, "http://localhost:3000");
    expect(safeCallbackPath(url.searchParams.get("callbackUrl"))).toBe(back);
    expect(
      redirectOnSite({ url: url.searchParams.get("callbackUrl") ?? "", baseUrl: "http://localhost:3000" }),
    ).toBe(`http://localhost:3000${back}`);
  });

  it("no callback for the root; no reason unless given", () => {
    expect(signInPath("/", null)).toBe("/sign-in");
    expect(signInPath("/", "expired")).toBe("/sign-in?reason=expired");
    expect(signInPath("/audit", null)).toBe("/sign-in?callbackUrl=%2Faudit");
  });
});
