import type { Transaction } from "@/features/transactions/schema/transaction";
import type { Transaction as TransactionRow } from "@/platform/db/generated/client";
import { ExactNumber } from "@/platform/schemas/exact-number";

export function toTransaction(t: TransactionRow): Transaction {
  return {
    id: t.id,
    date: t.date.toISOString(),
    event_type: t.eventType,
    event_name: t.eventName,
    event_note: t.eventNote,
    amount: ExactNumber.from(t.amount),
    currency: t.currency,
    payment_method: t.paymentMethod,
    created_by: t.createdBy,
    created_at: t.createdAt.toISOString(),
    completed_at: t.completedAt ? t.completedAt.toISOString() : null,
    status: t.status,
    updated_at: t.updatedAt.toISOString(),
  };
}
