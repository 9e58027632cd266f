import "server-only";

/** What other features' server code may use of this feature's data functions (docs/architecture.md). */
export { narrowToPending } from "./data/narrow-to-pending.ts";
