import { describe, expect, it } from "vitest";
import { txLine } from "../../../test/support/test-import-lines.ts";
import { parseTransactionLine } from "./import-line.ts";
import { parseWalletTransaction, walletMsgId } from "./wallet-events.ts";

const reason = (r: { ok: boolean; reason?: string }) => (r.ok ? "ok" : r.reason);

describe("transaction status in db:import lines", () => {
  it("derives a missing status from completed_at (files written before it existed)", () => {
    const pending = parseTransactionLine(txLine());
    const completed = parseTransactionLine(txLine({ completed_at: "2026-11-20T12:00:01.000Z" }));
    expect(pending.ok && pending.value.status).toBe("pending");
    expect(completed.ok && completed.value.status).toBe("completed");
  });

  it("takes failed and cancelled, and refuses a status that disagrees with completed_at", () => {
    expect(reason(parseTransactionLine(txLine({ status: "failed" })))).toBe("ok");
    expect(reason(parseTransactionLine(txLine({ status: "cancelled" })))).toBe("ok");
    expect(reason(parseTransactionLine(txLine({ status: "completed" })))).toBe(
      "status: must be `completed` exactly when `completed_at` is set",
    );
    expect(
      reason(parseTransactionLine(txLine({ status: "failed", completed_at: "2026-11-20T12:00:01.000Z" }))),
    ).toMatch(/^status: /);
    expect(reason(parseTransactionLine(txLine({ status: "rejected" })))).toMatch(/^status: /);
  });
});

describe("wallet.transaction events", () => {
  it("are a db:import line plus status and version, the amount exact", () => {
    const r = parseWalletTransaction(txLine({ status: "pending", version: 3 }, "0.00000001"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.amount.digits).toBe("0.00000001");
    expect(walletMsgId(r.value)).toBe("T1:3");
  });

  it("need both status and a positive integer version", () => {
    expect(reason(parseWalletTransaction(txLine({ version: 1 })))).toMatch(/^status: /);
    expect(reason(parseWalletTransaction(txLine({ status: "pending" })))).toMatch(/^version: /);
    expect(reason(parseWalletTransaction(txLine({ status: "pending", version: 0 })))).toMatch(/^version: /);
    expect(reason(parseWalletTransaction(txLine({ status: "pending", version: 1.5 })))).toMatch(/^version: /);
    expect(reason(parseWalletTransaction(txLine({ status: "pending", version: 1 }, '"12.5"')))).toBe(
      "amount: must be a JSON number (exact decimal)",
    );
  });
});
