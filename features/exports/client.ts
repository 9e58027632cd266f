/** What other features' browser code may use of this feature (docs/architecture.md): no server-only module, no zod. */
export { ExportButton } from "./ui/export-button.tsx";
