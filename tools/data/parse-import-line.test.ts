import { describe, expect, it } from "vitest";
import { txLine } from "../../test/support/test-import-lines.ts";
import {
  importPlayerRow,
  importTransactionRow,
  parsePlayerLine,
  parseTransactionLine,
} from "./parse-import-line.ts";
import { TRANSACTION_COPY_COLUMNS } from "./table-rows.ts";

const PLAYER = {
  id: "P000001",
  name: "Jane Doe",
  email: "jane@example.com",
  phone: null,
  currency: "EUR",
  language: "English",
  registration_date: "2024-01-01T00:00:00.000Z",
  ftd_date: null,
  last_login: null,
  kyc_status: "approved",
  withdrawal_status: "allowed",
  affiliate_name: null,
  affiliate_source: null,
  vip_manager: null,
  blocked: false,
  balances: {
    total_balance: 1,
    cash_balance: 1,
    bonus_balance: 0,
    withdrawable_balance: 1,
    pending_withdrawal: 0,
  },
  kpi: { active_bonus: false, wr: 0, last_withdrawal: null, last_deposit: null, ltd: 1, ltw: 0, ltnc: 1 },
  segments: ['vip, "gold"'],
  settings: {
    marketing_email_subscription: true,
    email_validation: true,
    email_account_activation: "activated",
    marketing_sms_subscription: false,
    sms_validation: false,
    sms_account_activation: null,
    want_bonus: true,
  },
};
const playerLine = (patch: Record<string, unknown> = {}) => JSON.stringify({ ...PLAYER, ...patch });

const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? "ok" : r.reason);

describe("parseTransactionLine", () => {
  it("accepts a transaction in the API's shape plus player_id, keeping every digit of the amount", () => {
    const result = parseTransactionLine(txLine());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = importTransactionRow(result.value);
    expect(row).toHaveLength(TRANSACTION_COPY_COLUMNS.length);
    expect(Object.fromEntries(TRANSACTION_COPY_COLUMNS.map((c, i) => [c, row[i]]))).toEqual({
      id: "T1",
      player_id: "P000001",
      date: "2026-11-20T12:00:00.000Z",
      event_type: "deposit",
      event_name: "Card Deposit",
      event_note: "\\N",
      amount: "123456789012.12345678", // a double would have made it 123456789012.12346
      currency: "EUR",
      payment_method: "Visa",
      created_by: "System",
      created_at: "2026-11-20T12:00:00.000Z",
      completed_at: "\\N",
      status: "pending",
    });
  });

  it("takes the amount's digits from the structural key, never from text inside a string", () => {
    const tricky = txLine({ event_note: ',"amount": 999,{"amount":1}' }, "-0.10000001");
    const result = parseTransactionLine(tricky);
    expect(result.ok && result.value.amount.digits).toBe("-0.10000001");
    expect(result.ok && result.value.event_note).toBe(',"amount": 999,{"amount":1}');
    // Key first in the object, and spaces around the colon, as PostgreSQL's json_build_object writes it.
    const spaced = `{"amount" : 12345678901.123456789, ${txLine()
      .slice(1)
      .replace(/"amount":[^,]+,/, "")}`;
    expect(reason(parseTransactionLine(spaced))).toMatch(/^amount: must have at most 12 integer and 8/);
  });

  it("escapes text for COPY", () => {
    const result = parseTransactionLine(txLine({ event_note: "a\tb\\c\nd" }));
    expect(result.ok && importTransactionRow(result.value)[5]).toBe("a\\tb\\\\c\\nd");
  });

  it.each([
    ["unparseable JSON", '{"id": "T1", ', /^not valid JSON: /],
    ["not an object", "[1, 2]", /^not a JSON object$/],
    ["a missing field", txLine({ created_by: undefined }), /^created_by: /],
    ["an unknown event type", txLine({ event_type: "jackpot" }), /^event_type: /],
    ["money as a string", txLine({}, '"12.5"'), /^amount: must be a JSON number \(exact decimal\)$/],
    [
      "money with an exponent",
      txLine({}, "1e3"),
      /^amount: must be a plain decimal number \(no exponent\), got 1e3$/,
    ],
    ["money wider than numeric(20,8)", txLine({}, "1234567890123"), /^amount: must have at most 12 integer/],
    [
      "money with 9 decimals",
      txLine({}, "0.123456789"),
      /^amount: must have at most 12 integer and 8 fractional/,
    ],
    ["a date that is not ISO 8601 UTC", txLine({ date: "20 Nov 2026" }), /^date: /],
    ["a date that does not exist", txLine({ date: "2026-02-30T00:00:00.000Z" }), /^date: /],
    [
      "sub-millisecond precision",
      txLine({ created_at: "2026-11-20T12:00:00.0001Z" }),
      /^created_at: must be at most millisecond/,
    ],
    ["an empty player_id", txLine({ player_id: "" }), /^player_id: must not be empty$/],
    ["an empty id", txLine({ id: "" }), /^id: must not be empty$/],
    ["NUL in text", txLine({ event_name: "a\u0000b" }), /^event_name: must not contain NUL/],
    [
      "a currency longer than the column",
      txLine({ currency: "ELEVENCHARS" }),
      /^currency: must be at most 10/,
    ],
  ])("refuses %s with the field and reason", (_what, line, expected) => {
    expect(reason(parseTransactionLine(line))).toMatch(expected);
  });
});

describe("parsePlayerLine", () => {
  it("accepts a profile in the API's shape; derived fields are validated but not part of the row", () => {
    const result = parsePlayerLine(playerLine());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const row = importPlayerRow(result.value);
    expect(row).toHaveLength(22);
    expect(row[0]).toBe("P000001");
    expect(row[14]).toBe('{"vip, \\\\"gold\\\\""}'); // text[] literal, quoted and escaped for COPY
  });

  it.each([
    ["a bad kyc_status", playerLine({ kyc_status: "done" }), /^kyc_status: /],
    [
      "a balance as a string",
      playerLine({ balances: { ...PLAYER.balances, cash_balance: "1" } }),
      /^balances\.cash_balance: must be a JSON number/,
    ],
    [
      "a nested KPI amount too wide",
      playerLine({ kpi: { ...PLAYER.kpi, ltd: 1e13 } }),
      /^kpi\.ltd: must have at most 12 integer/,
    ],
    ["a bad e-mail", playerLine({ email: "not-an-email" }), /^email: /],
    ["a missing settings object", playerLine({ settings: undefined }), /^settings: /],
    [
      "an id with a control character",
      playerLine({ id: "P\u0001" }),
      /^id: must not contain control characters$/,
    ],
    ["a non-boolean blocked", playerLine({ blocked: "no" }), /^blocked: /],
  ])("refuses %s", (_what, line, expected) => {
    expect(reason(parsePlayerLine(line))).toMatch(expected);
  });
});
