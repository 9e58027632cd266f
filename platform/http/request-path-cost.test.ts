import { describe, expect, it } from "vitest";
import { transactionListQuerySchema } from "@/features/transactions/schema/transaction";
import { scrubText } from "@/platform/log/log";
import { authenticated } from "@/test/support/authenticate";
import { clientAddress } from "./client-address.ts";
import { parseQuery } from "./query.ts";
import { clientRequestIdFor } from "./request-id.ts";
import { repairPercentEncoding } from "./request-stamp.mjs";
import { parseTrustedProxies } from "./trusted-proxies.mjs";

/*
 * Everything below runs on client-chosen text before (or while) a request is authenticated. A super-linear
 * regex there lets one anonymous client burn seconds of CPU with a long path or header. Each check times the
 * same work on a 15,000-character input and on a 300-character one, over the same number of characters in
 * the same run: linear code costs about the same per character (ratio ≈ 1), quadratic code ~50× more.
 */

const LONG = 15_000;
const SHORT = 300;
/** Generous: timing noise on a shared machine stays well below it, a quadratic pattern far above it. */
const MAX_RATIO = 6;

type Work = (input: string) => unknown;

/** Milliseconds per character: the fastest of several rounds, each processing `LONG * 2` characters. */
async function costPerChar(work: Work, input: string): Promise<number> {
  const repeats = Math.round((LONG * 2) / input.length);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    for (let i = 0; i < repeats; i++) await work(input);
    best = Math.min(best, performance.now() - started);
  }
  return best / (repeats * input.length);
}

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

async function expectLinear(work: Work, unit: string, prefix = "") {
  const make = (length: number) => prefix + repeatTo(unit, length - prefix.length);
  await costPerChar(work, make(SHORT)); // warm-up: compile the code paths first
  const short = await costPerChar(work, make(SHORT));
  const long = await costPerChar(work, make(LONG));
  expect(long / short, `per-character cost of ${JSON.stringify(unit)}: ${long} vs ${short} ms`).toBeLessThan(
    MAX_RATIO,
  );
}

const PATH = "/api/v1/players/";
// Runs of what each masking pattern may start with: letters (e-mail local part), dotted words (e-mail,
// domains), `eyJ-` (a JWT header at every word boundary), phone digits, bearer prefixes, percent signs.
const HOSTILE_UNITS = [
  "a",
  "a.",
  ".a",
  "@a.",
  "a@",
  "eyJ-",
  "eyJa.",
  "+1 ",
  "1 ",
  "bearer ",
  "%",
  "%ZZ",
  "-a@b",
];

describe("the request path's text handling costs time linear in the input", () => {
  it.each(HOSTILE_UNITS)("log masking of a path made of %j", async (unit) => {
    await expectLinear(scrubText, unit, PATH);
  });

  it.each(["%", "%ZZ", "a", "%C0%AF/"])("percent-encoding repair of a path made of %j", async (unit) => {
    await expectLinear((path) => repairPercentEncoding(path), unit, PATH);
  });

  // "10.0.0.1, ": every hop a trusted proxy, so the walk reads the whole header.
  it.each(["1", "1.", "[", ":", "::ffff:", "1, ", "10.0.0.1, "])(
    "client address from an X-Forwarded-For of %j",
    async (unit) => {
      const proxies = parseTrustedProxies("10.0.0.0/8");
      await expectLinear(
        (value) => clientAddress(new Headers({ "x-forwarded-for": value }), proxies, false),
        unit,
      );
    },
  );

  it.each(["a", "a.", "-"])("request id header of %j", async (unit) => {
    await expectLinear(
      (value) => clientRequestIdFor(new Request("http://localhost/", { headers: { "x-request-id": value } })),
      unit,
    );
  });

  it.each(["a", " ", "a.", "a-"])("bearer and session headers of %j", async (unit) => {
    const attempt = async (value: string, headers: Record<string, string>) => {
      await authenticated(new Headers(headers)).catch(() => undefined);
      return value;
    };
    await expectLinear(
      (value) => attempt(value, { authorization: `Bearer ${value}`, "x-session-id": "s" }),
      unit,
    );
    await expectLinear(
      (value) => attempt(value, { authorization: `Bearer ${value} x`, "x-session-id": "s" }),
      unit,
    );
    await expectLinear((value) => attempt(value, { authorization: "Bearer t", "x-session-id": value }), unit);
  });

  it.each(["a", "2026-", "1", ",", "%"])("query parameters of %j", async (unit) => {
    const parse = (value: string) => {
      try {
        return parseQuery(
          transactionListQuerySchema,
          new URLSearchParams({ q: value, from: value, limit: value }),
        );
      } catch {
        return null;
      }
    };
    await expectLinear(parse, unit);
  });
});
