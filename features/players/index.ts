/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { toPlayerProfile } from "./data/map-player.ts";
export { maskProfileContact } from "./data/mask-contact.ts";
export { activityPaths } from "./openapi/activity.ts";
export { playerPaths } from "./openapi/players.ts";
export type { PlayerProfile } from "./schema/player.ts";
export { kycStatusSchema, playerExportQuerySchema, playerProfileSchema } from "./schema/player.ts";
