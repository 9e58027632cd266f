/** A compact reading of an EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) plan. */

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

export interface ExplainJson {
  Plan: PlanNode;
  "Planning Time"?: number;
  "Execution Time": number;
}

export interface PlanSummary {
  /** Pre-order node list, e.g. `Limit > Index Scan (transactions_player_date_id_idx)`. */
  shape: string;
  executionMs: number;
  planningMs: number;
  /** Rows the statement returned (top node). */
  rows: number;
  /** Rows read and thrown away by filters anywhere in the plan. */
  removedByFilter: number;
  sharedHit: number;
  sharedRead: number;
  seqScan: boolean;
  sort: boolean;
  indexes: string[];
}

const LABEL_SKIP = new Set(["Result"]);

function label(node: PlanNode): string {
  const target = node["Index Name"] ?? node["Relation Name"];
  return target ? `${node["Node Type"]} (${target})` : node["Node Type"];
}

export function summarizePlan(explain: ExplainJson): PlanSummary {
  const parts: string[] = [];
  const indexes = new Set<string>();
  let seqScan = false;
  let sort = false;
  let removed = 0;
  const walk = (node: PlanNode) => {
    if (!LABEL_SKIP.has(node["Node Type"])) parts.push(label(node));
    if (node["Node Type"] === "Seq Scan" || node["Node Type"] === "Parallel Seq Scan") seqScan = true;
    if (/Sort$/.test(node["Node Type"])) sort = true;
    if (node["Index Name"]) indexes.add(node["Index Name"]);
    removed += (node["Rows Removed by Filter"] ?? 0) * (node["Actual Loops"] ?? 1);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(explain.Plan);
  return {
    shape: parts.join(" > "),
    executionMs: explain["Execution Time"],
    planningMs: explain["Planning Time"] ?? 0,
    rows: explain.Plan["Actual Rows"] ?? 0,
    removedByFilter: removed,
    sharedHit: explain.Plan["Shared Hit Blocks"] ?? 0,
    sharedRead: explain.Plan["Shared Read Blocks"] ?? 0,
    seqScan,
    sort,
    indexes: [...indexes],
  };
}

/** What a captured Prisma statement does, from its SQL. */
export function statementKind(sql: string): "player" | "page" | "count" | "stats" | "other" {
  if (/FROM "public"\."players"/.test(sql)) return "player";
  if (/transaction_daily_stats/.test(sql)) return "stats";
  if (/COUNT\(/i.test(sql) && /"transactions"/.test(sql)) return "count";
  if (/FROM "public"\."transactions"/.test(sql)) return "page";
  return "other";
}

/** Prisma's query event carries its parameters as a JSON array (numbers as strings). */
export function parsePrismaParams(params: string): unknown[] {
  const parsed: unknown = JSON.parse(params);
  if (!Array.isArray(parsed)) throw new Error(`not a parameter list: ${params}`);
  return parsed;
}
