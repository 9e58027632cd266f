import { describe, expect, it } from "vitest";
import { parsePrismaParams, statementKind, summarizePlan } from "./plan-summary.ts";

describe("summarizePlan", () => {
  it("reads shape, index, sort, seq scan, time, rows and buffers from EXPLAIN JSON", () => {
    const summary = summarizePlan({
      "Planning Time": 0.2,
      "Execution Time": 17.5,
      Plan: {
        "Node Type": "Limit",
        "Actual Rows": 20,
        "Shared Hit Blocks": 300,
        "Shared Read Blocks": 27,
        Plans: [
          {
            "Node Type": "Sort",
            Plans: [
              {
                "Node Type": "Bitmap Heap Scan",
                "Relation Name": "transactions",
                "Rows Removed by Filter": 5,
                "Actual Loops": 2,
                Plans: [
                  { "Node Type": "Bitmap Index Scan", "Index Name": "transactions_player_name_date_id_idx" },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(summary).toEqual({
      shape:
        "Limit > Sort > Bitmap Heap Scan (transactions) > Bitmap Index Scan (transactions_player_name_date_id_idx)",
      executionMs: 17.5,
      planningMs: 0.2,
      rows: 20,
      removedByFilter: 10,
      sharedHit: 300,
      sharedRead: 27,
      seqScan: false,
      sort: true,
      indexes: ["transactions_player_name_date_id_idx"],
    });
  });

  it("flags a sequential scan, parallel or not", () => {
    const plan = (type: string) =>
      summarizePlan({
        "Execution Time": 1,
        Plan: { "Node Type": "Gather", Plans: [{ "Node Type": type, "Relation Name": "transactions" }] },
      });
    expect(plan("Parallel Seq Scan").seqScan).toBe(true);
    expect(plan("Seq Scan").shape).toBe("Gather > Seq Scan (transactions)");
    expect(plan("Index Scan").seqScan).toBe(false);
  });
});

describe("captured statements", () => {
  it("classifies Prisma's SQL", () => {
    expect(statementKind('SELECT "public"."players"."id" FROM "public"."players" WHERE x')).toBe("player");
    expect(statementKind('SELECT SUM("n") FROM (SELECT "public"."transaction_daily_stats"."n" FROM x)')).toBe(
      "stats",
    );
    expect(
      statementKind(
        'SELECT COUNT(*) AS "_count$_all" FROM (SELECT "public"."transactions"."id" FROM "public"."transactions")',
      ),
    ).toBe("count");
    expect(statementKind('SELECT "public"."transactions"."id" FROM "public"."transactions" ORDER BY 1')).toBe(
      "page",
    );
    expect(statementKind("BEGIN")).toBe("other");
  });

  it("parses the parameter list and refuses anything else", () => {
    expect(parsePrismaParams('["P000007","21","0"]')).toEqual(["P000007", "21", "0"]);
    expect(() => parsePrismaParams('{"a":1}')).toThrow(/not a parameter list/);
  });
});
