import { constants, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/features/api-docs/document";
import { EXPORT_COLUMNS } from "@/features/exports/data/transaction-export-format";
import { TRANSACTION_SORTS } from "@/features/transactions/schema/transaction-cursor";
import { getPrisma } from "@/platform/db/client";
import { lastId, readThenDrop, wholeLines } from "@/test/support/export-stream";
import { createOpenApiValidator, validationErrors } from "@/test/support/openapi-validator";
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

/** The cells of one CSV row (RFC 4180 quoting; the rows read here hold no line break). */
function csvCells(row: string): string[] {
  const cells: string[] = [];
  for (const m of row.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) {
    cells.push(m[1] === undefined ? (m[2] ?? "") : m[1].replaceAll('""', '"'));
  }
  return cells;
}

/** The last row's values as a client reads them from an NDJSON line: its id, date and amount's exact digits. */
function positionOf(line: string) {
  const { id, date } = JSON.parse(line) as { id: string; date: string };
  const amount = /"amount":(-?[\d.]+)/.exec(line)?.[1] ?? "";
  return { id, date, amount };
}

const resumeQs = (p: { id: string; date: string; amount: string }) =>
  `after=${encodeURIComponent(p.id)}&after_date=${encodeURIComponent(p.date)}&after_amount=${encodeURIComponent(p.amount)}`;

/** Deletes a transaction for the time of `run`, then puts it back exactly (updated_at included). */
async function whileDeleted<T>(id: string, run: () => Promise<T>): Promise<T> {
  const db = getPrisma();
  const row = await db.transaction.findUniqueOrThrow({ where: { id } });
  await db.transaction.delete({ where: { id } });
  try {
    return await run();
  } finally {
    await db.transaction.create({ data: row });
  }
}

describe("transactions export: rows like the list's, resumed after a deleted row", () => {
  it("each row carries updated_at equal to the list's, and each NDJSON line is the document's line schema", async () => {
    const listed: Record<string, unknown>[] = [];
    for (let cursor = ""; ; ) {
      const page = await kit.call(
        "GET",
        `/api/v1/players/${WHALE}/transactions?${FILTERS}&limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      const body = page.json as { transactions: Record<string, unknown>[]; next_cursor: string | null };
      listed.push(...body.transactions);
      if (!body.next_cursor) break;
      cursor = body.next_cursor;
    }
    expect(listed.length).toBeGreaterThan(1_000);
    const ndjson = rowsOf((await kit.call("GET", path("format=ndjson"))).text, "ndjson");
    // The line is the list's row with player_id first: same keys, same order, same values (updated_at too).
    expect(ndjson.map((l) => JSON.parse(l))).toEqual(listed.map((t) => ({ player_id: WHALE, ...t })));
    expect(Object.keys(JSON.parse(ndjson[0] ?? "{}"))).toEqual([
      "player_id",
      ...Object.keys(listed[0] ?? {}),
    ]);
    const validator = createOpenApiValidator(buildOpenApiDocument());
    const line = validator.response("/players/{playerId}/transactions/export", "200", "application/x-ndjson");
    for (const l of ndjson.slice(0, 500)) expect(validationErrors(line, JSON.parse(l)), l).toEqual([]);
    // CSV: updated_at is the last column, as the list has it.
    const csv = (await kit.call("GET", path("format=csv"))).text.split("\r\n");
    expect(csv[0]?.split(",").at(-1)).toBe("updated_at");
    expect(rowsOf(csv.join("\r\n"), "csv").map((r) => r.split(",").at(-1))).toEqual(
      listed.map((t) => t.updated_at),
    );
  });

  for (const sort of TRANSACTION_SORTS) {
    it(`after + after_date + after_amount continue exactly after a row deleted meanwhile (NDJSON, ${sort})`, async () => {
      const full = (await kit.call("GET", path(`format=ndjson&sort=${sort}`))).text;
      const rows = rowsOf(full, "ndjson");
      const k = Math.floor(rows.length * 0.3);
      const received = rows
        .slice(0, k + 1)
        .map((l) => `${l}\n`)
        .join("");
      const last = positionOf(rows[k] ?? "");
      await whileDeleted(last.id, async () => {
        // By id alone the position is gone: the old way's 400.
        const byId = await kit.call("GET", path(`format=ndjson&sort=${sort}&after=${last.id}`));
        expect(byId.status).toBe(400);
        const rest = await kit.call("GET", path(`format=ndjson&sort=${sort}&${resumeQs(last)}`));
        expect(rest.status, rest.text).toBe(200);
        // No duplicate, no gap: what was received plus the rest is the full export the client began.
        expect(received + rest.text).toBe(full);
        expect(rest.headers.get("x-total-count")).toBe(String(rows.length - 1));
      });
    });
  }

  it("CSV: the last row's date and amount cells resume after it once deleted, appending byte for byte", async () => {
    const full = (await kit.call("GET", path("format=csv&sort=amount_desc"))).text;
    const lines = full.split("\r\n");
    const k = 1 + Math.floor((lines.length - 2) * 0.6);
    const cells = csvCells(lines[k] ?? "");
    const at = (c: string) => cells[EXPORT_COLUMNS.indexOf(c as (typeof EXPORT_COLUMNS)[number])] ?? "";
    const last = { id: at("id").replace(/^'/, ""), date: at("date"), amount: at("amount") };
    const received = lines
      .slice(0, k + 1)
      .map((l) => `${l}\r\n`)
      .join("");
    await whileDeleted(last.id, async () => {
      const rest = await kit.call("GET", path(`format=csv&sort=amount_desc&${resumeQs(last)}`));
      expect(rest.contentType).toBe("text/csv; charset=utf-8; header=absent");
      expect(received + rest.text).toBe(full);
    });
  });

  it("the resume parameters: with an existing row the same as after alone; checked, each 400 naming its parameter", async () => {
    const rows = rowsOf((await kit.call("GET", path("format=ndjson&sort=date_asc"))).text, "ndjson");
    const p = positionOf(rows[41] ?? "");
    const byId = await kit.call("GET", path(`format=ndjson&sort=date_asc&after=${p.id}`));
    const byKey = await kit.call(
      "GET",
      path(`format=ndjson&sort=date_asc&after=${p.id}&after_date=${p.date}`),
    );
    expect(byKey.status).toBe(200);
    expect(byKey.text).toBe(byId.text);
    expect(rowsOf(byKey.text, "ndjson")).toEqual(rows.slice(42));
    for (const [qs, names] of [
      [`after_date=${p.date}`, ["after_date"]],
      [`after_amount=${p.amount}`, ["after_amount"]],
      [`sort=amount_desc&after=${p.id}&after_date=${p.date}`, ["after_amount"]],
      [`sort=date_desc&after=${p.id}&after_amount=${p.amount}`, ["after_date"]],
      [`after=${p.id}&after_date=2026-13-01T00:00:00Z`, ["after_date"]],
      [`after=${p.id}&after_date=2026-01-01`, ["after_date"]],
      [`sort=amount_asc&after=${p.id}&after_amount=1e5`, ["after_amount"]],
    ] as const) {
      const res = await kit.call("GET", path(`format=ndjson&${qs}`));
      expect(res.status, qs).toBe(400);
      expect(
        (res.json as { errors: { name: string }[] }).errors.map((e) => e.name),
        qs,
      ).toEqual(names);
    }
  });
});
