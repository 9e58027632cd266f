import { describe, expect, it } from "vitest";
import { transactionExportQuerySchema } from "@/features/transactions/schema/transaction";
import { parseQuery } from "@/platform/http/query";
import { attachmentDisposition, exportFileName } from "./export-file-name.ts";

/** The name the route writes for a query string. */
function nameFor(playerId: string, qs: string): string {
  const { format, sort, ...filters } = parseQuery(transactionExportQuerySchema, new URLSearchParams(qs));
  return exportFileName({ playerId, format, filters, sort });
}

describe("exportFileName: the player and the filters, safe characters only", () => {
  it("states the player, the types and a whole-day range as its first and last day", () => {
    expect(nameFor("P000007", "format=csv&event_type=deposit&from_date=2026-01-01&to_date=2026-01-31")).toBe(
      "P000007_transactions_deposit_2026-01-01_2026-01-31.csv",
    );
    // The view's inclusive day ends (…T23:59:59.999Z) close the same day.
    expect(
      nameFor("P000007", "from_date=2026-01-01T00:00:00.000Z&to_date=2026-01-31T23:59:59.999Z&format=ndjson"),
    ).toBe("P000007_transactions_2026-01-01_2026-01-31.ndjson");
  });

  it("no filter: the player alone; one end, other filters and a non-default order are named", () => {
    expect(nameFor("P000007", "")).toBe("P000007_transactions.csv");
    expect(nameFor("P000007", "from_date=2026-03-01")).toBe("P000007_transactions_from-2026-03-01.csv");
    expect(nameFor("P000007", "to_date=2026-03-01T10:30:00Z")).toBe(
      "P000007_transactions_to-2026-03-01T103000Z.csv",
    );
    expect(
      nameFor(
        "P000007",
        "event_type=bet,win&event_name=Casino Bet&created_by=VIP Manager&status=pending&sort=amount_desc",
      ),
    ).toBe("P000007_transactions_bet-win_Casino-Bet_by-VIP-Manager_pending_amount-desc.csv");
  });

  it("keeps only letters, digits, dot, dash and underscore, and stays short", () => {
    const name = nameFor('a"b/c\\d é;\r\n', `event_name=${encodeURIComponent('x"; rm -rf /')}`);
    expect(name).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(name).toBe("a_b_c_d_transactions_x-rm-rf.csv");
    const many = Array.from({ length: 40 }, (_, i) => `event_name=Name${i}`).join("&");
    expect(nameFor("P1", many)).toBe("P1_transactions_40-names.csv");
    const long = nameFor("P1", `transaction_id=${"T".repeat(64)}&event_name=${"n".repeat(190)}`);
    expect(long.length).toBeLessThanOrEqual(180);
    expect(long.endsWith(".csv")).toBe(true);
  });

  it("Content-Disposition carries filename and filename*", () => {
    expect(attachmentDisposition("P000007_transactions.csv")).toBe(
      "attachment; filename=\"P000007_transactions.csv\"; filename*=UTF-8''P000007_transactions.csv",
    );
  });
});
