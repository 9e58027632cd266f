/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { changePaths } from "./openapi/changes.ts";
