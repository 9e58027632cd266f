import { constants, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { getPrisma } from "@/lib/db/client";
import { TRANSACTION_SORTS } from "@/lib/schemas/transaction-cursor";
import { lastId, readThenDrop, wholeLines } from "@/test/support/export-stream";
import { routeKitForFile } from "@/test/support/route-test-kit";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";

/*
 * The transactions export resumed after a cut (`after=`), its row count header and gzip, through the route
 * handler on the integration run's database (demo data: the whale P000007 has 24,000 transactions).
 */
const WHALE = "P000007";
const FILTERS = "event_type=deposit,withdrawal,adjustment";
const path = (qs: string) => `/api/v1/players/${WHALE}/transactions/export?${FILTERS}&${qs}`;
const decoder = new TextDecoder();

const kit = routeKitForFile();

/** Data lines of an export body (CSV: without its header row). */
const rowsOf = (text: string, format: "ndjson" | "csv") => {
  const lines = text.split(format === "csv" ? "\r\n" : "\n");
  lines.pop();
  return format === "csv" ? lines.slice(1) : lines;
};

/**
 * A consumer cut at each of `cuts` (fractions of the rest's length): each attempt reads until the cut, drops
 * the connection, keeps its whole lines and resumes after the last one's id. Returns the concatenated text.
 */
async function cutAndResume(qs: string, format: "ndjson" | "csv", cuts: number[], fullLength: number) {
  let got = "";
  let after: string | undefined;
  for (const cut of [...cuts, undefined]) {
    const url = path(after === undefined ? qs : `${qs}&after=${encodeURIComponent(after)}`);
    const res = await kit.open("GET", url);
    expect(res.status, url).toBe(200);
    const text =
      cut === undefined
        ? await res.text()
        : wholeLines(decoder.decode(await readThenDrop(res, Math.floor(fullLength * cut))));
    got += text;
    if (cut !== undefined) after = lastId(got, format);
  }
  return got;
}

describe("transactions export: resume, count, gzip", () => {
  for (const sort of TRANSACTION_SORTS) {
    it(`cut twice and resumed with after=, equals one full export row for row (NDJSON, ${sort})`, async () => {
      const full = await kit.call("GET", path(`format=ndjson&sort=${sort}`));
      expect(full.status).toBe(200);
      const rows = rowsOf(full.text, "ndjson");
      expect(rows.length).toBeGreaterThan(1_000);
      expect(full.headers.get("x-total-count")).toBe(String(rows.length));
      const got = await cutAndResume(`format=ndjson&sort=${sort}`, "ndjson", [0.05, 0.4], full.text.length);
      expect(rowsOf(got, "ndjson")).toEqual(rows);
      expect(got).toBe(full.text);
    });
  }

  it("CSV: a resumed part has no header row, so the parts append byte for byte", async () => {
    const full = await kit.call("GET", path("format=csv&sort=amount_desc"));
    expect(full.headers.get("x-total-count")).toBe(String(rowsOf(full.text, "csv").length));
    const got = await cutAndResume("format=csv&sort=amount_desc", "csv", [0.3], full.text.length);
    expect(got).toBe(full.text);
    const second = rowsOf(full.text, "csv")[0] ?? "";
    const resumed = await kit.call("GET", path(`format=csv&sort=amount_desc&after=${lastId(second, "csv")}`));
    expect(resumed.contentType).toBe("text/csv; charset=utf-8; header=absent");
    expect(resumed.text.startsWith("player_id,")).toBe(false);
    // The count is the whole export's, also on a resumed part.
    expect(resumed.headers.get("x-total-count")).toBe(full.headers.get("x-total-count"));
  });

  it("after the last row: an empty answer; a bad or unknown after: 400 naming after", async () => {
    const full = await kit.call(
      "GET",
      `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions/export?format=ndjson`,
    );
    const end = await kit.call(
      "GET",
      `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions/export?format=ndjson&after=${lastId(full.text, "ndjson")}`,
    );
    expect(end.status).toBe(200);
    expect(end.text).toBe("");
    const whaleRow = lastId(
      rowsOf((await kit.call("GET", path("format=ndjson"))).text, "ndjson")[0] ?? "",
      "ndjson",
    );
    for (const after of ["NO-SUCH-TX", "", whaleRow, "a\u0001b"]) {
      const res = await kit.call(
        "GET",
        `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions/export?after=${encodeURIComponent(after)}`,
      );
      expect(res.status, after).toBe(400);
      expect(res.contentType).toBe("application/problem+json");
      expect((res.json as { errors: { name: string }[] }).errors.map((e) => e.name)).toEqual(["after"]);
    }
  });

  it("gzip when asked: streamed, Vary, and it decompresses to the identity bytes; identity otherwise", async () => {
    const identity = await kit.call("GET", path("format=ndjson"));
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(identity.headers.get("vary")).toBe("Accept-Encoding");
    expect(identity.headers.get("cache-control")).toBe("no-store, no-transform");
    for (const accept of ["gzip", "br, gzip;q=0.5", "*"]) {
      const gz = await kit.call("GET", path("format=ndjson"), { headers: { "accept-encoding": accept } });
      expect(gz.headers.get("content-encoding"), accept).toBe("gzip");
      expect(gz.headers.get("vary")).toBe("Accept-Encoding");
      expect(gz.bytes.length).toBeLessThan(identity.bytes.length / 4);
      expect(Buffer.from(gunzipSync(gz.bytes)).equals(Buffer.from(identity.bytes))).toBe(true);
    }
    for (const accept of ["identity", "gzip;q=0", "deflate", "*;q=0"]) {
      const res = await kit.call("GET", path("format=ndjson"), { headers: { "accept-encoding": accept } });
      expect(res.headers.get("content-encoding"), accept).toBeNull();
      expect(Buffer.from(res.bytes).equals(Buffer.from(identity.bytes))).toBe(true);
    }
  });

  it("a gzip transfer cut part-way still decompresses to whole lines to resume after", async () => {
    const identity = await kit.call("GET", path("format=ndjson"));
    const res = await kit.open("GET", path("format=ndjson"), { headers: { "accept-encoding": "gzip" } });
    const cut = await readThenDrop(res, 30_000);
    const text = decoder.decode(gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }));
    const lines = wholeLines(text);
    expect(lines.length).toBeGreaterThan(0);
    expect(identity.text.startsWith(lines)).toBe(true);
    const rest = await kit.call("GET", path(`format=ndjson&after=${lastId(lines, "ndjson")}`), {
      headers: { "accept-encoding": "gzip" },
    });
    expect(lines + decoder.decode(gunzipSync(rest.bytes))).toBe(identity.text);
  });

  it("a resumed export is audited as an export, its after among the recorded filters", async () => {
    const first = rowsOf((await kit.call("GET", path("format=ndjson"))).text, "ndjson")[9] ?? "";
    const after = lastId(first, "ndjson");
    const res = await kit.call("GET", path(`format=ndjson&after=${after}`));
    const requestId = res.headers.get("x-request-id") ?? "";
    const rows = await getPrisma().auditEvent.findMany({ where: { requestId } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: "export", playerId: WHALE });
    expect(rows[0]?.filters).toMatchObject({
      after,
      format: "ndjson",
      event_type: "deposit,withdrawal,adjustment",
    });
  });
});
