import "server-only";

/** What other features' server code may use of this feature's data functions (docs/architecture.md). */
export { countPlayerTransactions } from "./data/count-player-transactions.ts";
export { findTransactionPosition } from "./data/find-transaction-position.ts";
export { getPlayerTransactionFacets } from "./data/get-player-transaction-facets.ts";
export { sumPlayerTransactions } from "./data/sum-player-transactions.ts";
