import { describe, expect, it } from "vitest";
import { AuditOperation } from "@/platform/db/generated/enums";
import { AUDIT_OPERATIONS } from "@/platform/schemas/enums";
import { AUDIT_OPERATION_ENTRIES, AUDIT_OPERATION_NAMES } from "./audit-operations.ts";

/*
 * The operations' entries are the app's one list; the database keeps its own as the enum audit_operation
 * (docs/decisions.md, "Audit operations"). A new operation without its migration fails here, not at its first
 * audit row.
 */
describe("audit operations", () => {
  it("are the database enum's values, no more and no fewer", () => {
    expect([...AUDIT_OPERATION_NAMES].sort()).toEqual(Object.values(AuditOperation).sort());
  });

  it("give the schemas' list, in the entries' order", () => {
    expect(AUDIT_OPERATIONS).toEqual(Object.keys(AUDIT_OPERATION_ENTRIES));
  });

  it("each has words for the pages and a meaning for the reference", () => {
    for (const entry of Object.values(AUDIT_OPERATION_ENTRIES)) {
      expect(entry.label.length).toBeGreaterThan(0);
      expect(entry.description.length).toBeGreaterThan(0);
    }
  });

  it("rank the parts of a grouped page view each at its own place", () => {
    const ranks = Object.values(AUDIT_OPERATION_ENTRIES).flatMap((e) => ("short" in e ? [e.short.rank] : []));
    expect(new Set(ranks).size).toBe(ranks.length);
  });
});
