import type { Transaction as TransactionRow } from "@/lib/db/generated/client";
import { ExactNumber } from "@/lib/schemas/exact-number";
import type { Transaction } from "@/lib/schemas/transaction";

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
