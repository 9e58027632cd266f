import { z } from "zod";
import { playerProfileSchema } from "@/features/players";
import { transactionSchema } from "@/features/transactions";
import { type DecimalTree, isDecimalPath, parseWire } from "@/platform/client/wire-codec";
import { playerIdSchema } from "@/platform/schemas/common";
import { decimalTree } from "../../../platform/schemas/decimal-tree.ts";
import { ExactNumber } from "../../../platform/schemas/exact-number.ts";

/*
 * One NDJSON line of db:import (or one wallet event, features/live/schema/wallet-events.ts) → a validated record, or the
 * reason it is refused. Lines have exactly the API's
 * shapes and go through the API's own schemas (unknown keys are ignored, as the schemas do); on top of
 * them, what PostgreSQL would refuse or silently round is refused here, so a COPY never fails halfway:
 * money must fit numeric(20,8), instants must be real and at most millisecond-precise, text must not
 * contain NUL, currency at most 10 characters.
 */

/** Digits that ExactNumber does not take (an exponent, say) stay as this, so the message can say why. */
class NotPlainDecimal {
  constructor(readonly digits: string) {}
}
const toDecimal = (digits: string) =>
  /^-?\d+(\.\d+)?$/.test(digits) ? new ExactNumber(digits) : new NotPlainDecimal(digits);

/*
 * `updated_at` is the read model's own (the time of its write): a line may carry it (an export of the API) and it
 * is ignored like any unknown key; the database stamps the row.
 */
export const importPlayerSchema = playerProfileSchema
  .omit({ updated_at: true })
  .extend({ id: playerIdSchema });
/**
 * A transaction line: the API's transaction with its player. `status` may be left out (files written before it
 * existed): it is then `completed` when `completed_at` is set, else `pending`. Given, it must agree with
 * `completed_at` (set exactly when completed).
 */
/** The transaction line's object, before `status` is settled: the wallet's events extend it. */
export const importTransactionObject = transactionSchema.omit({ updated_at: true }).extend({
  id: z.string().min(1, "must not be empty"),
  player_id: playerIdSchema,
});

/** Where a line's exact decimals are: where the API's schemas have them. */
const PLAYER_DECIMALS: DecimalTree = decimalTree(importPlayerSchema) ?? {};
const TRANSACTION_DECIMALS: DecimalTree = decimalTree(importTransactionObject) ?? {};

/** `status` and `completed_at` agree: set exactly when completed. */
export const statusAgrees = (t: { status: string; completed_at: string | null }) =>
  (t.status === "completed") === (t.completed_at !== null);
export const STATUS_AGREES_MESSAGE = "must be `completed` exactly when `completed_at` is set";

export const importTransactionSchema = importTransactionObject
  .extend({ status: transactionSchema.shape.status.optional() })
  .transform((t) => ({ ...t, status: t.status ?? (t.completed_at === null ? "pending" : "completed") }))
  .refine(statusAgrees, { path: ["status"], message: STATUS_AGREES_MESSAGE });
export type ImportPlayer = z.infer<typeof importPlayerSchema>;
export type ImportTransaction = z.infer<typeof importTransactionSchema>;

export type LineResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/*
 * Transactions are flat and carry one money key, so they take a fast path that is just as exact: JSON.parse
 * for the structure and the amount's digits read from the text itself. A key preceded by `{` or `,` is
 * structural (inside a JSON string every quote is escaped), so the match is the real "amount". Anything
 * unusual (no match, two matches, a nested amount) goes through parseWire.
 */
const TOP_LEVEL_AMOUNT = /[{,]\s*"amount"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*[,}]/g;

function parseTransactionJson(text: string): unknown {
  TOP_LEVEL_AMOUNT.lastIndex = 0;
  const first = TOP_LEVEL_AMOUNT.exec(text);
  const digits = first?.[1];
  if (digits !== undefined && TOP_LEVEL_AMOUNT.exec(text) === null) {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      if (typeof record.amount === "number") {
        record.amount = toDecimal(digits);
        return record;
      }
    }
  }
  return parseWire(text, TRANSACTION_DECIMALS, toDecimal);
}

const pathText = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join(".") : "(line)");

/** A leaf the database stores exactly as parsed: checked without building a path (the common case). */
const plainLeaf = (value: unknown) =>
  value === null ||
  typeof value === "boolean" ||
  typeof value === "number" ||
  (typeof value === "string" && !value.includes("\u0000"));

/** Walks the parsed value for what the schemas accept but the database would not store exactly. */
function storageProblem(value: unknown, path: (string | number)[] = []): string | null {
  if (value instanceof NotPlainDecimal)
    return `${pathText(path)}: must be a plain decimal number (no exponent), got ${value.digits}`;
  if (value instanceof ExactNumber) {
    const digits = value.digits;
    const sign = digits.startsWith("-") ? 1 : 0;
    const point = digits.indexOf(".");
    const whole = (point < 0 ? digits.length : point) - sign;
    const frac = point < 0 ? 0 : digits.length - point - 1;
    if (whole > 12 || frac > 8)
      return `${pathText(path)}: must have at most 12 integer and 8 fractional digits (numeric(20,8)), got ${value.digits}`;
    return null;
  }
  if (typeof value === "string")
    return value.includes("\u0000") ? `${pathText(path)}: must not contain NUL characters` : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (plainLeaf(value[i])) continue;
      const problem = storageProblem(value[i], [...path, i]);
      if (problem) return problem;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (plainLeaf(item)) continue;
      const problem = storageProblem(item, [...path, key]);
      if (problem) return problem;
    }
  }
  return null;
}

/** z.iso.datetime() checks the form; this checks the calendar (no 30 February) and the precision. */
function instantProblem(value: unknown, path: string): string | null {
  if (typeof value !== "string") return null;
  if (CANONICAL_INSTANT.test(value)) {
    // The API's own form (milliseconds, Z): the calendar checked by arithmetic instead of a Date round trip.
    return realCalendar(value) ? null : `${path}: not a real instant: ${value}`;
  }
  const ms = Date.parse(value);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 16) !== value.slice(0, 16))
    return `${path}: not a real instant: ${value}`;
  const fraction = /\.(\d+)Z$/.exec(value)?.[1];
  if (fraction && fraction.length > 3 && !/^0+$/.test(fraction.slice(3)))
    return `${path}: must be at most millisecond-precise (the database keeps milliseconds): ${value}`;
  return null;
}

const CANONICAL_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Whether YYYY-MM-DDTHH:MM of a canonical instant names a real minute (what the Date round trip tells). */
export function realCalendar(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const hour = Number(value.slice(11, 13));
  const minute = Number(value.slice(14, 16));
  const second = Number(value.slice(17, 19));
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days =
    month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

function firstIssue(error: z.ZodError, decimals: DecimalTree): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  // zod's words for a failed instanceof check ("Invalid input") say nothing useful.
  const message =
    isDecimalPath(decimals, issue.path) && issue.code === "custom"
      ? "must be a JSON number (exact decimal)"
      : issue.message;
  return `${pathText(issue.path)}: ${message}`;
}

function parse<S extends z.ZodType>(
  text: string,
  decimals: DecimalTree,
  parseJson: (text: string) => unknown,
  schema: S,
  dates: (value: z.infer<S>) => [string, unknown][],
): LineResult<z.infer<S>> {
  let raw: unknown;
  try {
    raw = parseJson(text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` };
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return { ok: false, reason: "not a JSON object" };
  const storage = storageProblem(raw);
  if (storage) return { ok: false, reason: storage };
  const result = schema.safeParse(raw);
  if (!result.success) return { ok: false, reason: firstIssue(result.error, decimals) };
  for (const [path, value] of dates(result.data)) {
    const problem = instantProblem(value, path);
    if (problem) return { ok: false, reason: problem };
  }
  return { ok: true, value: result.data };
}

export function parsePlayerLine(text: string): LineResult<ImportPlayer> {
  return parsePlayerWith(text, importPlayerSchema);
}

/** A profile in the line format through `schema` (db:import's, or a wallet event's with `version`). */
export function parsePlayerWith<S extends z.ZodType<ImportPlayer>>(
  text: string,
  schema: S,
): LineResult<z.infer<S>> {
  const parseJson = (t: string) => parseWire(t, PLAYER_DECIMALS, toDecimal);
  const result = parse(text, PLAYER_DECIMALS, parseJson, schema, (p) => [
    ["registration_date", p.registration_date],
    ["ftd_date", p.ftd_date],
    ["last_login", p.last_login],
    ["kpi.last_deposit.date", p.kpi.last_deposit?.date],
  ]);
  if (result.ok && result.value.currency.length > 10)
    return { ok: false, reason: "currency: must be at most 10 characters" };
  return result;
}

export function parseTransactionLine(text: string): LineResult<ImportTransaction> {
  return parseTransactionWith(text, importTransactionSchema);
}

/** A transaction in the line format through `schema` (db:import's, or a wallet event's with `version`). */
export function parseTransactionWith<
  S extends z.ZodType<{ currency: string; date: string; created_at: string; completed_at: string | null }>,
>(text: string, schema: S): LineResult<z.infer<S>> {
  const result = parse(text, TRANSACTION_DECIMALS, parseTransactionJson, schema, (t) => [
    ["date", t.date],
    ["created_at", t.created_at],
    ["completed_at", t.completed_at],
  ]);
  if (result.ok && result.value.currency.length > 10)
    return { ok: false, reason: "currency: must be at most 10 characters" };
  return result;
}
