/** What other features' browser code may use of this feature (docs/architecture.md): no server-only module, no zod. */
export {
  LiveUpdatesContext,
  useNewTransactions,
  usePlayerLiveUpdates,
} from "./client/use-player-live-updates.ts";
export { LiveIndicator } from "./ui/live-indicator.tsx";
