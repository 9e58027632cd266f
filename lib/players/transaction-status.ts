import type { Transaction, TransactionStatus } from "@/lib/schemas/transaction";

/**
 * A transaction's status, the one place that derives it (the CSV export's `status` column reads it): `pending`
 * while `completed_at` is null, `completed` once set. When the API carries a `status` field of its own (with
 * failed and cancelled), this returns that field and every reader follows.
 */
export function transactionStatus(t: Pick<Transaction, "completed_at">): TransactionStatus {
  return t.completed_at === null ? "pending" : "completed";
}
