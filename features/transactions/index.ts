/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { toTransaction } from "./data/map-transaction.ts";
export type { InstantRange } from "./data/transaction-where.ts";
export { filterRange, statsWhere } from "./data/transaction-where.ts";
export { afterKeySql, orderBySql, transactionWhereSql } from "./data/transaction-where-sql.ts";
export { bulkTransactionPaths } from "./openapi/bulk-transactions.ts";
export { transactionPaths } from "./openapi/transactions.ts";
export type {
  EventType,
  ExportFormat,
  Transaction,
  TransactionFilters,
  TransactionStatus,
} from "./schema/transaction.ts";
export {
  eventTypeSchema,
  TRANSACTION_STATUSES,
  transactionExportQuerySchema,
  transactionFacetsQuerySchema,
  transactionSchema,
} from "./schema/transaction.ts";
export type { TransactionKey, TransactionSort } from "./schema/transaction-cursor.ts";
