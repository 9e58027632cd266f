/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { auditPaths } from "./openapi/audit.ts";
