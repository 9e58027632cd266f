import { describe, expect, it } from "vitest";
import { z } from "zod";
import { auditListQuerySchema } from "@/features/audit/schema/audit";
import { playerSearchQuerySchema } from "@/features/players/schema/player";
import {
  transactionExportQuerySchema,
  transactionListQuerySchema,
} from "@/features/transactions/schema/transaction";
import { ApiError } from "@/platform/problems/problem";
import { playerIdSchema } from "@/platform/schemas/common";
import { arrayParamsOf, parsePathParam, parseQuery, searchParamsToObject } from "./query.ts";

const tx = (qs: string) => parseQuery(transactionListQuerySchema, new URLSearchParams(qs));
const search = (qs: string) => parseQuery(playerSearchQuerySchema, new URLSearchParams(qs));

/** The 400 problem a query string yields; fails the test when it parses. */
function problemOf(parse: () => unknown): ApiError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected a 400 problem, but the query parsed");
}
const badNames = (parse: () => unknown) => {
  const problem = problemOf(parse);
  expect(problem.status).toBe(400);
  expect(problem.type).toMatch(/^https?:\/\/[^/]+\/problems\/invalid-parameters$/);
  return (problem.errors ?? []).map((e) => e.name);
};

describe("arrayParamsOf: which parameters take several values, read from the schema", () => {
  it("finds the array fields of the real query schemas, through optional, default and refinements", () => {
    expect(arrayParamsOf(transactionListQuerySchema)).toEqual(["event_type", "event_name"]);
    expect(arrayParamsOf(transactionExportQuerySchema)).toEqual(["event_type", "event_name"]);
    expect(arrayParamsOf(auditListQuerySchema)).toEqual(["operation"]);
    expect(arrayParamsOf(playerSearchQuerySchema)).toEqual([]);
  });

  it("lets a new list parameter take commas and repeats with no second list to update", () => {
    const schema = z
      .strictObject({
        tag: z.array(z.string()).min(1).optional(),
        sizes: z.array(z.coerce.number()).default([]),
        piped: z.array(z.string()).pipe(z.array(z.string()).max(3)).optional(),
        name: z.string().optional(),
      })
      .superRefine(() => {});
    expect(arrayParamsOf(schema)).toEqual(["tag", "sizes", "piped"]);
    const parsed = parseQuery(schema, new URLSearchParams("tag=a,b&tag=c&sizes[]=1&piped=x"));
    expect(parsed).toEqual({ tag: ["a", "b", "c"], sizes: [1], piped: ["x"] });
    expect(badNames(() => parseQuery(schema, new URLSearchParams("name=a&name=b")))).toEqual(["name"]);
  });
});

describe("searchParamsToObject", () => {
  it("collects repeated keys, comma-separated values and the name[] form into one list", () => {
    const { value, errors } = searchParamsToObject(
      new URLSearchParams("event_type=bet&event_type=win,deposit&event_type[]=refund"),
      ["event_type"],
    );
    expect(errors).toEqual([]);
    expect(value.event_type).toEqual(["bet", "win", "deposit", "refund"]);
  });

  it("keeps a single list value as a one-element list", () => {
    expect(searchParamsToObject(new URLSearchParams("event_type=bet"), ["event_type"]).value).toEqual({
      event_type: ["bet"],
    });
  });

  it("trims around commas and keeps empty items so the schema can reject them", () => {
    expect(searchParamsToObject(new URLSearchParams("n=a , b,,"), ["n"]).value.n).toEqual(["a", "b", "", ""]);
  });

  it("reports a repeated single-value parameter once", () => {
    const { errors } = searchParamsToObject(new URLSearchParams("limit=1&limit=2&limit=3"), []);
    expect(errors).toEqual([{ name: "limit", in: "query", detail: "must be given only once" }]);
  });

  it("turns __proto__ into an own key instead of dropping it", () => {
    const { value } = searchParamsToObject(new URLSearchParams("__proto__=1&constructor=2"), []);
    expect(Object.keys(value).sort()).toEqual(["__proto__", "constructor"]);
  });
});

describe("transaction list query", () => {
  it("defaults: limit 20, offset 0, newest first, no filters", () => {
    expect(tx("")).toEqual({ limit: 20, offset: 0, sort: "date_desc" });
  });

  it("accepts the three list forms and mixes them", () => {
    const forms = [
      "event_type=bet&event_type=win",
      "event_type=bet,win",
      "event_type[]=bet&event_type[]=win",
      "event_type%5B%5D=bet&event_type=win",
      "event_type=bet%2Cwin",
    ];
    for (const qs of forms) expect(tx(qs).event_type, qs).toEqual(["bet", "win"]);
  });

  it("accepts every event type and nothing else", () => {
    const all = "deposit,withdrawal,bonus,bet,win,adjustment,refund";
    expect(tx(`event_type=${all}`).event_type).toEqual(all.split(","));
    expect(badNames(() => tx("event_type=Deposit"))).toEqual(["event_type"]);
    expect(badNames(() => tx("event_type=bet,payout"))).toEqual(["event_type"]);
    const problem = problemOf(() => tx("event_type=bet,payout"));
    expect(problem.errors?.[0]?.detail).toMatch(/^value 2: must be one of: deposit, withdrawal/);
  });

  it("matches event names exactly, spaces included", () => {
    expect(tx("event_name=Casino%20Bet&event_name=Card+Deposit").event_name).toEqual([
      "Casino Bet",
      "Card Deposit",
    ]);
  });

  it("rejects empty values of any parameter", () => {
    for (const name of Object.keys(transactionListQuerySchema.shape)) {
      expect(
        badNames(() => tx(`${name}=`)),
        name,
      ).toEqual([name]);
    }
    expect(badNames(() => tx("event_type=bet,"))).toEqual(["event_type"]);
    expect(badNames(() => tx("event_name=,Casino%20Bet"))).toEqual(["event_name"]);
  });

  it("rejects unknown parameters, naming each", () => {
    expect(badNames(() => tx("eventType=bet&foo=1&limit=5"))).toEqual(["eventType", "foo"]);
    expect(badNames(() => tx("foo[]=1"))).toEqual(["foo"]);
    expect(badNames(() => tx("__proto__=1"))).toEqual(["__proto__"]);
    expect(badNames(() => tx("LIMIT=5"))).toEqual(["LIMIT"]);
  });

  it("audit cursor: 1 to bigint's maximum, named once whatever is wrong with it", () => {
    const audit = (qs: string) => parseQuery(auditListQuerySchema, new URLSearchParams(qs));
    expect(audit("cursor=9223372036854775807").cursor).toBe("9223372036854775807");
    expect(audit("cursor=1").cursor).toBe("1");
    for (const bad of [
      "9223372036854775808",
      "9999999999999999999",
      "99999999999999999999",
      "0",
      "-1",
      "a".repeat(19),
    ]) {
      expect(
        badNames(() => audit(`cursor=${bad}`)),
        bad,
      ).toEqual(["cursor"]);
    }
  });

  it("rejects repeated single-value parameters", () => {
    for (const name of ["from_date", "to_date", "created_by"]) {
      expect(
        badNames(() => tx(`${name}=2025-01-01&${name}=2025-01-02`)),
        name,
      ).toContain(name);
    }
    expect(badNames(() => tx("limit=1&limit=1"))).toEqual(["limit"]);
    expect(badNames(() => tx("offset=0&offset=0"))).toEqual(["offset"]);
  });

  it("limit: 1 to 100, whole numbers in plain digits", () => {
    expect(tx("limit=1").limit).toBe(1);
    expect(tx("limit=100").limit).toBe(100);
    expect(tx("limit=007").limit).toBe(7);
    for (const bad of [
      "0",
      "101",
      "-1",
      "1.5",
      "1e2",
      "+5",
      " 5",
      "5 ",
      "0x10",
      "ten",
      "99999999999999999999999",
      "１",
    ]) {
      const problem = problemOf(() => tx(`limit=${encodeURIComponent(bad)}`));
      expect(
        problem.errors?.map((e) => e.name),
        bad,
      ).toEqual(["limit"]);
    }
  });

  it("offset: 0 to 1e9, whole numbers in plain digits", () => {
    expect(tx("offset=0").offset).toBe(0);
    expect(tx("offset=1").offset).toBe(1);
    expect(tx("offset=1000000000").offset).toBe(1_000_000_000);
    for (const bad of ["-1", "1.5", "1e2", "1000000001", "99999999999999999999999", "NaN", "Infinity"]) {
      expect(
        badNames(() => tx(`offset=${bad}`)),
        bad,
      ).toEqual(["offset"]);
    }
  });

  it("names every offending parameter at once", () => {
    expect(
      badNames(() => tx("limit=0&offset=-1&event_type=x&from_date=nope&to_date=2025-02-30")).sort(),
    ).toEqual(["event_type", "from_date", "limit", "offset", "to_date"]);
  });

  it("parses date bounds; a date-only to_date becomes exclusive next midnight", () => {
    const q = tx("from_date=2025-03-10T05:30:00%2B05:30&to_date=2025-03-10");
    expect(q.from_date).toEqual({ at: new Date("2025-03-10T00:00:00.000Z"), exclusive: false });
    expect(q.to_date).toEqual({ at: new Date("2025-03-11T00:00:00.000Z"), exclusive: true });
  });

  it("a + in a date-time query value is a space unless percent-encoded (form encoding)", () => {
    // `+02:00` unencoded arrives as " 02:00": not an ISO offset, so a 400, never a silent UTC reading.
    expect(badNames(() => tx("from_date=2025-03-10T05:30:00+02:00"))).toEqual(["from_date"]);
  });

  it("rejects unparseable dates and impossible calendar dates", () => {
    for (const bad of [
      "yesterday",
      "2025-02-29",
      "2025-13-01",
      "2025-03-10T25:00:00Z",
      "0001-01-01T00:00:00%2B01:00",
    ]) {
      expect(
        badNames(() => tx(`from_date=${bad}`)),
        bad,
      ).toEqual(["from_date"]);
      expect(
        badNames(() => tx(`to_date=${bad}`)),
        bad,
      ).toEqual(["to_date"]);
    }
  });

  it("from_date after to_date is a 400 naming from_date; equal bounds are fine", () => {
    expect(badNames(() => tx("from_date=2025-03-11&to_date=2025-03-10"))).toEqual(["from_date"]);
    expect(badNames(() => tx("from_date=2025-03-10T00:00:00.001Z&to_date=2025-03-10T00:00:00Z"))).toEqual([
      "from_date",
    ]);
    // A date-only to_date means the whole day: from = that day's last millisecond is still inside.
    expect(tx("from_date=2025-03-10T23:59:59.999Z&to_date=2025-03-10").from_date).toBeDefined();
    expect(badNames(() => tx("from_date=2025-03-11T00:00:00Z&to_date=2025-03-10"))).toEqual(["from_date"]);
    expect(tx("from_date=2025-03-10T12:00:00Z&to_date=2025-03-10T12:00:00Z").to_date?.exclusive).toBe(false);
    expect(tx("from_date=2025-03-10&to_date=2025-03-10").from_date?.at).toEqual(
      new Date("2025-03-10T00:00:00Z"),
    );
  });

  it("rejects control characters and over-long values in text filters", () => {
    expect(badNames(() => tx("created_by=Sys%00tem"))).toEqual(["created_by"]);
    expect(badNames(() => tx("created_by=Admin%0A"))).toEqual(["created_by"]);
    expect(badNames(() => tx("event_name=Casino%09Bet"))).toEqual(["event_name"]);
    expect(badNames(() => tx(`created_by=${"a".repeat(101)}`))).toEqual(["created_by"]);
    expect(badNames(() => tx(`event_name=${"a".repeat(201)}`))).toEqual(["event_name"]);
    expect(tx(`created_by=${"a".repeat(100)}`).created_by).toHaveLength(100);
  });

  it("caps the number of event names", () => {
    const names = Array.from({ length: 51 }, (_, i) => `n${i}`).join(",");
    expect(badNames(() => tx(`event_name=${names}`))).toEqual(["event_name"]);
    expect(tx(`event_name=${names.split(",").slice(0, 50).join(",")}`).event_name).toHaveLength(50);
  });

  it("keeps unicode in text filters", () => {
    expect(tx("created_by=%C3%89lodie&event_name=%F0%9F%8E%B0%20Slots").created_by).toBe("Élodie");
  });
});

describe("player search query", () => {
  it("defaults and bounds", () => {
    expect(search("")).toEqual({ limit: 20, offset: 0 });
    expect(search("q=m%C3%BCller&limit=100&offset=5")).toEqual({ q: "müller", limit: 100, offset: 5 });
    expect(badNames(() => search("q="))).toEqual(["q"]);
    expect(badNames(() => search(`q=${"x".repeat(101)}`))).toEqual(["q"]);
    expect(badNames(() => search("q=a%00b"))).toEqual(["q"]);
    expect(badNames(() => search("q=a&q=b"))).toEqual(["q"]);
    expect(badNames(() => search("limit=101"))).toEqual(["limit"]);
    expect(badNames(() => search("event_type=bet"))).toEqual(["event_type"]);
  });

  it("does not treat q as a list: commas are part of the text", () => {
    expect(search("q=a,b").q).toBe("a,b");
  });
});

describe("the profile operation takes no query parameters", () => {
  it("rejects any", () => {
    expect(badNames(() => parseQuery(z.strictObject({}), new URLSearchParams("limit=1&x=")))).toEqual([
      "limit",
      "x",
    ]);
    expect(parseQuery(z.strictObject({}), new URLSearchParams(""))).toEqual({});
  });
});

describe("parsePathParam", () => {
  it("accepts ids of 1–64 characters without control characters", () => {
    expect(parsePathParam(playerIdSchema, "playerId", "P000007")).toBe("P000007");
    expect(parsePathParam(playerIdSchema, "playerId", "a/b ü%_")).toBe("a/b ü%_");
  });

  it("rejects empty, long and control-character ids as a 400 naming playerId in the path", () => {
    for (const bad of ["", "x".repeat(65), "P\u0000", "P\u007f", "P\n"]) {
      const problem = problemOf(() => parsePathParam(playerIdSchema, "playerId", bad));
      expect(problem.errors?.map((e) => [e.name, e.in])).toEqual([["playerId", "path"]]);
    }
  });
});
