import { describeOperation } from "@/lib/format/audit";
import { AUDIT_OPERATIONS } from "@/lib/schemas/enums";

/** The options of an operation filter: "all" first, then every audited read in words. */
export function AuditOperationOptions({ allValue, allLabel }: { allValue: string; allLabel: string }) {
  return (
    <>
      <option value={allValue}>{allLabel}</option>
      {AUDIT_OPERATIONS.map((op) => (
        <option key={op} value={op}>
          {describeOperation(op)}
        </option>
      ))}
    </>
  );
}
