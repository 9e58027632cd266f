import { SCENARIO_NAMES, type ScenarioName } from "./scenarios.ts";

export interface BenchArgs {
  databaseUrl: string;
  /** Seconds of each measured run (the export scenario runs a fixed number of requests instead). */
  durationSeconds: number;
  /**
   * Interleaved rounds per scenario and concurrency: each round measures every side once, the order rotating
   * from round to round, and the figures are the medians over the rounds. The machine is shared: a neighbour's
   * load lands on one round, not on one side.
   */
  rounds: number;
  out?: string;
  scenarios: ScenarioName[];
  /** Run `next build` (of the product and of the floor app) even when a production build exists. */
  build: boolean;
  productPort: number;
  baselinePort: number;
  /** The floor app (tools/bench/floor-app); by default the port after the other two. */
  floorPort: number;
  /** The bulk scenario stops after this many rows (default: every transaction). */
  bulkRows?: number;
}

export const DEFAULT_DURATION_SECONDS = 4;
export const DEFAULT_ROUNDS = 3;
export const DEFAULT_PRODUCT_PORT = 3340;
export const DEFAULT_BASELINE_PORT = 3341;

const USAGE =
  "usage: npm run bench -- [--database-url URL] [--duration SECONDS] [--rounds N] [--out FILE] [--scenarios a,b] [--build] [--port N] [--baseline-port N] [--floor-port N] [--bulk-rows N]";

function parsePort(flag: string, text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65_535) throw new Error(`${flag}: not a port: ${text}`);
  return port;
}

/** Command line (after `--`) + environment → options. Throws a readable message (with the usage) on bad input. */
export function parseBenchArgs(argv: readonly string[], env: Record<string, string | undefined>): BenchArgs {
  const { values, build } = readFlags(argv);
  const databaseUrl = values.get("--database-url") ?? env.DATABASE_URL;
  if (!databaseUrl) throw new Error(`set --database-url or DATABASE_URL\n${USAGE}`);
  const durationSeconds = parseDuration(values.get("--duration"));
  const rounds = parseRounds(values.get("--rounds"));
  const scenarios = parseScenarios(values.get("--scenarios"));
  const { productPort, baselinePort, floorPort } = parsePorts(values);
  const out = values.get("--out");
  const bulkText = values.get("--bulk-rows");
  const bulkRows = bulkText === undefined ? undefined : Number(bulkText);
  if (bulkRows !== undefined && !(Number.isInteger(bulkRows) && bulkRows >= 1)) {
    throw new Error(`--bulk-rows: a whole number of rows (at least 1), got ${bulkText}`);
  }
  return {
    databaseUrl,
    durationSeconds,
    rounds,
    scenarios,
    build,
    productPort,
    baselinePort,
    floorPort,
    ...(out ? { out } : {}),
    ...(bulkRows ? { bulkRows } : {}),
  };
}

const VALUE_FLAGS = [
  "--database-url",
  "--duration",
  "--rounds",
  "--out",
  "--scenarios",
  "--port",
  "--baseline-port",
  "--floor-port",
  "--bulk-rows",
];

/** The flags given (`--flag value` or `--flag=value`; `--build` alone); an unknown one or a missing value throws. */
function readFlags(argv: readonly string[]): { values: Map<string, string>; build: boolean } {
  const values = new Map<string, string>();
  let build = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--build") {
      build = true;
      continue;
    }
    const match = /^(--[a-z-]+)(?:=(.*))?$/.exec(arg);
    const flag = match?.[1];
    if (!flag || !VALUE_FLAGS.includes(flag)) {
      throw new Error(`unknown argument: ${arg}\n${USAGE}`);
    }
    const value = match[2] ?? argv[++i];
    if (value === undefined || value === "") throw new Error(`${flag} needs a value\n${USAGE}`);
    values.set(flag, value);
  }
  return { values, build };
}

function parseDuration(durationText: string | undefined): number {
  const durationSeconds = durationText === undefined ? DEFAULT_DURATION_SECONDS : Number(durationText);
  if (!Number.isFinite(durationSeconds) || durationSeconds < 1 || durationSeconds > 600) {
    throw new Error(`--duration: seconds between 1 and 600, got ${durationText}`);
  }
  return durationSeconds;
}

function parseRounds(roundsText: string | undefined): number {
  const rounds = roundsText === undefined ? DEFAULT_ROUNDS : Number(roundsText);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) {
    throw new Error(`--rounds: a whole number between 1 and 50, got ${roundsText}`);
  }
  return rounds;
}

/** The scenarios asked for (default all), in the canonical order so runs are comparable. */
function parseScenarios(scenarioText: string | undefined): ScenarioName[] {
  if (scenarioText === undefined) return [...SCENARIO_NAMES];
  const wanted = scenarioText
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((s) => !(SCENARIO_NAMES as readonly string[]).includes(s));
  if (unknown.length || wanted.length === 0) {
    throw new Error(
      `--scenarios: unknown ${unknown.join(", ") || "(none)"}; known: ${SCENARIO_NAMES.join(", ")}`,
    );
  }
  // Keep the canonical order so runs are comparable.
  return SCENARIO_NAMES.filter((s) => wanted.includes(s));
}

/** The three servers' ports: the product's, the baseline's after it, the floor's after both; all different. */
function parsePorts(values: Map<string, string>) {
  const productPort = parsePort("--port", values.get("--port") ?? String(DEFAULT_PRODUCT_PORT));
  const baselinePort = parsePort(
    "--baseline-port",
    values.get("--baseline-port") ??
      String(productPort === DEFAULT_BASELINE_PORT ? productPort + 1 : DEFAULT_BASELINE_PORT),
  );
  if (productPort === baselinePort) throw new Error("--port and --baseline-port must differ");
  const floorPort = parsePort(
    "--floor-port",
    values.get("--floor-port") ?? String(Math.max(productPort, baselinePort) + 1),
  );
  if (floorPort === productPort || floorPort === baselinePort) {
    throw new Error("--floor-port must differ from --port and --baseline-port");
  }
  return { productPort, baselinePort, floorPort };
}
