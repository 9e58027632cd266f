import "server-only";

/** What other features' server code may use of this feature's data functions (docs/architecture.md). */
export { assertPlayerExists } from "./data/assert-player-exists.ts";
export { getPlayerProfiles } from "./data/get-player-profiles.ts";
