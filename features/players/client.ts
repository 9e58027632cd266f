/** What other features' browser code may use of this feature (docs/architecture.md): no server-only module, no zod. */
export { TimeZoneSwitch } from "./ui/time-zone-switch.tsx";
