import { describe, expect, it } from "vitest";
import { transactionSchema } from "@/features/transactions/schema/transaction";
import { Prisma, type Transaction as TransactionRow } from "@/platform/db/generated/client";
import { stringifyJson } from "@/platform/http/json";
import { toTransaction } from "./map-transaction.ts";

function row(overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id: "T1",
    playerId: "P1",
    date: new Date("2025-03-10T05:30:00+05:30"),
    eventType: "deposit",
    eventName: "Card Deposit",
    eventNote: null,
    updatedAt: new Date("2026-11-26T04:00:00.000Z"),
    amount: new Prisma.Decimal("0.30000000"),
    currency: "EUR",
    paymentMethod: "Visa",
    createdBy: "System",
    createdAt: new Date("2025-03-10T00:00:00.001Z"),
    completedAt: null,
    status: "pending",
    version: 0,
    ...overrides,
  };
}

describe("toTransaction", () => {
  it("maps to the wire shape with UTC ISO times and every field present", () => {
    const t = toTransaction(row());
    expect(transactionSchema.parse(t)).toEqual(t);
    const json = JSON.parse(stringifyJson(t));
    expect(json).toEqual({
      id: "T1",
      date: "2025-03-10T00:00:00.000Z",
      event_type: "deposit",
      event_name: "Card Deposit",
      event_note: null,
      amount: 0.3,
      currency: "EUR",
      payment_method: "Visa",
      created_by: "System",
      created_at: "2025-03-10T00:00:00.001Z",
      completed_at: null,
      status: "pending",
      updated_at: "2026-11-26T04:00:00.000Z",
    });
    expect(json).not.toHaveProperty("player_id");
  });

  it("writes amounts with their exact digits", () => {
    const cases: [string, string][] = [
      ["0.1", "0.1"],
      ["0.30000000", "0.3"],
      ["123456789012.12345678", "123456789012.12345678"],
      ["-0.00000001", "-0.00000001"],
      ["-999999999999.99999999", "-999999999999.99999999"],
      ["100.00000000", "100"],
      ["0", "0"],
    ];
    for (const [stored, wire] of cases) {
      const json = stringifyJson(toTransaction(row({ amount: new Prisma.Decimal(stored) })));
      expect(json, stored).toContain(`"amount":${wire},`);
    }
  });

  it("keeps completed_at when set", () => {
    expect(toTransaction(row({ completedAt: new Date("2025-03-10T13:00:00.001+01:00") })).completed_at).toBe(
      "2025-03-10T12:00:00.001Z",
    );
  });
});
