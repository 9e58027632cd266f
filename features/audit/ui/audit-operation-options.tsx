import { describeOperation } from "@/features/audit/client/audit-labels";
import { AUDIT_OPERATIONS } from "@/platform/schemas/enums";

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
