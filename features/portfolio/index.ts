/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { portfolioPaths } from "./openapi/portfolio.ts";
