/**
 * The benchmark's scenarios, in run order. "cheap" ones compare against a cheap baseline (ratio ≥ 0.5), "whale"
 * ones against the baseline's straightforward SQL (ratio ≥ 1). The "reference" row has no target: the product's
 * health route (Next.js, no authentication, `SELECT 1`) against the baseline's profile, i.e. the most any route
 * of this Next.js server can reach relative to the bare baseline on this machine.
 */
export const SCENARIOS = [
  {
    name: "framework-floor",
    kind: "reference",
    description: "health route (SELECT 1) vs the baseline's profile",
  },
  { name: "profile", kind: "cheap", description: "profile of the whale" },
  { name: "small-first-page", kind: "cheap", description: "first page of a small player" },
  { name: "whale-first-page", kind: "whale", description: "first page of the whale" },
  { name: "whale-type-date", kind: "whale", description: "the whale, event_type + date range" },
  { name: "whale-event-name", kind: "whale", description: "the whale, event_name" },
  { name: "whale-offset", kind: "whale", description: "the whale at offset ≈100,000" },
  { name: "whale-cursor", kind: "whale", description: "the whale via cursor at the same depth" },
  { name: "export-csv", kind: "whale", description: "CSV export of ≈100,000 rows" },
] as const;

export type ScenarioName = (typeof SCENARIOS)[number]["name"];
export type ScenarioKind = (typeof SCENARIOS)[number]["kind"];

export const SCENARIO_NAMES: readonly ScenarioName[] = SCENARIOS.map((s) => s.name);

export const CONCURRENCIES = [1, 32] as const;

export function scenarioKind(name: ScenarioName): ScenarioKind {
  return SCENARIOS.find((s) => s.name === name)?.kind ?? "whale";
}

/** A streamed export of ≈100k rows cannot answer in 50 ms; the latency target applies to the page reads. */
export const isLatencyTargeted = (name: ScenarioName): boolean =>
  name !== "export-csv" && scenarioKind(name) !== "reference";
