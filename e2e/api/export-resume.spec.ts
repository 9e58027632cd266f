import { gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { signToken } from "../../test/support/e2e-auth.ts";
import { httpGetThenDrop, lastId, wholeLines } from "../../test/support/export-stream.ts";
import { AUTH, expectProblem, get, responseValidator } from "./helpers.ts";

/*
 * The exports over real HTTP: a consumer whose connection drops part-way resumes with `after=` and ends with one
 * full export, row for row, for every sort; X-Total-Count; gzip on the wire (and identity, untouched by Next.js's
 * own compression, otherwise); the profiles export masked per scope and audited per batch.
 */
const WHALE = "P000007";
const SORTS = ["date_desc", "date_asc", "amount_desc", "amount_asc"] as const;
const FILTERS = "event_type=deposit,withdrawal&format=ndjson";
const txPath = (qs: string) => `/api/v1/players/${WHALE}/transactions/export?${FILTERS}&${qs}`;
const IDENTITY = { ...AUTH, "Accept-Encoding": "identity" };

/** The absolute URL of a path on the project's server (for node:http, which drops the connection at will). */
const urlOf = (path: string) => new URL(path, test.info().project.use.baseURL).toString();

/** The body as sent, read to the end over node:http (no client-side decompression). */
const rawGet = (path: string, headers: Record<string, string>) =>
  httpGetThenDrop(urlOf(path), headers, Number.POSITIVE_INFINITY);

/** `after=` the last line's id; with `byKey`, also its date and amount as received (the row need not exist). */
function resumeAfter(head: string, byKey: boolean): string {
  const after = `after=${encodeURIComponent(lastId(head, "ndjson"))}`;
  if (!byKey) return after;
  const last = head.trimEnd().split("\n").at(-1) ?? "";
  const date = (JSON.parse(last) as { date: string }).date;
  const amount = /"amount":(-?[\d.]+)/.exec(last)?.[1] ?? "";
  return `${after}&after_date=${encodeURIComponent(date)}&after_amount=${encodeURIComponent(amount)}`;
}

/** Cut at `fraction` of the full length (connection dropped), keep whole lines, resume after the last one. */
async function cutThenResume(
  path: (qs: string) => string,
  qs: string,
  fraction: number,
  fullLength: number,
  byKey = false,
) {
  const cut = await httpGetThenDrop(urlOf(path(qs)), IDENTITY, Math.floor(fullLength * fraction));
  expect(cut.status).toBe(200);
  const head = wholeLines(cut.body.subarray(0, Math.floor(fullLength * fraction)).toString("utf8"));
  expect(head.length).toBeGreaterThan(0);
  const rest = await rawGet(path(`${qs}&${resumeAfter(head, byKey)}`), IDENTITY);
  expect(rest.status).toBe(200);
  return head + rest.body.toString("utf8");
}

test.describe("transactions export: resume after a dropped connection, count, gzip", () => {
  for (const sort of SORTS) {
    test(`cut at 40% and resumed with after= equals one full export (${sort})`, async () => {
      const full = await rawGet(txPath(`sort=${sort}`), IDENTITY);
      const text = full.body.toString("utf8");
      const lines = text.split("\n").slice(0, -1);
      expect(lines.length).toBeGreaterThan(500);
      expect(full.headers["x-total-count"]).toBe(String(lines.length));
      expect(await cutThenResume(txPath, `sort=${sort}`, 0.4, text.length)).toBe(text);
      // From the last line's own values (after_date, after_amount): the same rest, no lookup of the row.
      expect(await cutThenResume(txPath, `sort=${sort}`, 0.7, text.length, true)).toBe(text);
    });
  }

  test("gzip on the wire when asked decompresses to the identity bytes; identity stays identity", async () => {
    const identity = await rawGet(txPath(""), IDENTITY);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    const gz = await rawGet(txPath(""), { ...AUTH, "Accept-Encoding": "gzip, deflate, br" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gz.body.length).toBeLessThan(identity.body.length / 4);
    expect(gunzipSync(gz.body).equals(identity.body)).toBe(true);
    // A client that takes deflate only gets identity: Next.js's own compression stays off (no-transform).
    const deflate = await rawGet(txPath(""), { ...AUTH, "Accept-Encoding": "deflate" });
    expect(deflate.headers["content-encoding"]).toBeUndefined();
    expect(deflate.body.equals(identity.body)).toBe(true);
  });

  test("an unknown after is a 400 naming after; HEAD sends the count", async ({ request }) => {
    await expectProblem(await get(request, txPath("after=NO-SUCH-TX")), 400, ["after"]);
    const head = await request.head(txPath(""), { headers: AUTH });
    expect(head.status()).toBe(200);
    expect(Number(head.headers()["x-total-count"])).toBeGreaterThan(500);
  });
});

test.describe("GET /api/v1/exports/players", () => {
  const PATH = "/api/v1/exports/players";

  test("masked per scope, counted, resumable, gzip", async ({ request }) => {
    const agent = await signToken("e2e-profiles-agent", { roles: ["support_agent"] });
    const masked = await rawGet(PATH, { ...IDENTITY, Authorization: `Bearer ${agent}` });
    const full = await rawGet(PATH, IDENTITY);
    const maskedLines = masked.body.toString("utf8").split("\n").slice(0, -1);
    const fullText = full.body.toString("utf8");
    expect(masked.headers["x-total-count"]).toBe(String(maskedLines.length));
    expect(full.headers["x-total-count"]).toBe(String(maskedLines.length));
    expect(maskedLines.length).toBeGreaterThan(200);
    // Each line is one PlayerProfile, as the document's x-ndjson schema (one line's) says.
    const line = await responseValidator(request, "/exports/players", "200", "application/x-ndjson");
    for (const l of maskedLines) expect(line(JSON.parse(l)), JSON.stringify(line.errors)).toBe(true);
    const first = JSON.parse(maskedLines[6] ?? "{}") as { id: string; email: string | null };
    expect(first.email).toMatch(/\*\*\*/);
    // Each line is what the profile read answers the same caller.
    const profile = await get(request, `/api/v1/players/${first.id}`, { Authorization: `Bearer ${agent}` });
    expect(maskedLines[6]).toBe(await profile.text());
    expect(fullText).not.toContain("***@");
    expect(await cutThenResume((qs) => `${PATH}?${qs}`, "", 0.5, fullText.length)).toBe(fullText);
    const gz = await rawGet(PATH, { ...AUTH, "Accept-Encoding": "gzip" });
    expect(gunzipSync(gz.body).equals(full.body)).toBe(true);
  });

  test("manager filter; bad after is a 400; audited per batch in the trail", async ({ request }) => {
    const res = await get(request, `${PATH}?manager=${encodeURIComponent("Sarah Mitchell")}`);
    const lines = (await res.text())
      .split("\n")
      .slice(0, -1)
      .map((l) => JSON.parse(l) as { vip_manager: string });
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.every((p) => p.vip_manager === "Sarah Mitchell")).toBe(true);
    await expectProblem(await get(request, `${PATH}?after=NO-SUCH-PLAYER`), 400, ["after"]);
    const subject = `e2e-profiles-${Date.now()}`;
    const reader = await signToken(subject, { roles: ["support_agent"] });
    const exported = await rawGet(PATH, { ...IDENTITY, Authorization: `Bearer ${reader}` });
    const ids = exported.body
      .toString("utf8")
      .split("\n")
      .slice(0, -1)
      .map((l) => (JSON.parse(l) as { id: string }).id);
    const admin = await signToken("e2e-auditor", { roles: ["admin"] });
    const trail = await get(request, `/api/v1/audit?subject=${subject}&operation=profiles_export&limit=100`, {
      Authorization: `Bearer ${admin}`,
    });
    expect(trail.status()).toBe(200);
    const events = ((await trail.json()) as { events: { result_player_ids: string[]; request_id: string }[] })
      .events;
    expect(new Set(events.map((e) => e.request_id)).size).toBe(1);
    expect(events.flatMap((e) => e.result_player_ids).sort()).toEqual([...ids].sort());
  });
});
