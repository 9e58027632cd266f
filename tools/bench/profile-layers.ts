/*
 * A V8 CPU profile (.cpuprofile) of a Next.js server, charged to layers: Next.js, Node's HTTP and streams,
 * undici and web streams, Prisma, pg, zod, the project's own steps (by file), garbage collection. Frames in the
 * build's chunks are mapped back to their sources through the chunks' source maps, so the project's code and the
 * packages bundled with it are told apart. Native frames (no script) are charged to their caller, except
 * JSON.stringify/parse, which are charged to JSON. Samples are counted, not weighted by their time deltas: on a
 * shared machine a delta after a preemption is not CPU time.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  /** Microseconds, V8's clock. */
  startTime?: number;
  endTime?: number;
}

export const IDLE = "(idle)";

/** A frame's place in the sources: the file (repository-relative or a package path) and line. */
export interface SourcePosition {
  file: string;
  line: number;
}

/** Maps a script URL and position to its original source, through the script's source map when it has one. */
export type SourceResolver = (url: string, line: number, column: number) => SourcePosition;

const PROJECT_LAYERS: [RegExp, string][] = [
  [/^lib\/http\/api-handler\.ts$/, "withApi (lib/http/api-handler.ts)"],
  [/^lib\/auth\//, "authentication (lib/auth, jose)"],
  [/^lib\/http\/rate-limit\.ts$/, "rate limit (lib/http/rate-limit.ts)"],
  [/^lib\/audit\//, "audit (lib/audit)"],
  [/^lib\/log\.ts$/, "logging (lib/log.ts, pino)"],
  [
    /^lib\/(http\/json\.ts|players\/map-|players\/mask-|schemas\/exact-number\.ts)/,
    "JSON and mapping (exact JSON, row mapping, masking)",
  ],
  [/^lib\/(http\/query\.ts|schemas\/)/, "validation (lib/http/query.ts, lib/schemas, zod)"],
  [/^(lib|app)\//, "the rest of the project's code"],
];

const PACKAGE_LAYERS: [RegExp, string][] = [
  [/^next\/dist\/compiled\/compression\//, "Next.js: compression"],
  [/^next\//, "Next.js"],
  [/^@next\//, "Next.js"],
  [/^(@prisma\/|\.prisma\/|prisma\/)/, "Prisma (client, query compiler, adapter)"],
  [/^(pg|pg-protocol|pg-types|pg-pool|pg-connection-string|pgpass|postgres-[a-z]+)\//, "pg"],
  [/^zod\//, "validation (lib/http/query.ts, lib/schemas, zod)"],
  [/^jose\//, "authentication (lib/auth, jose)"],
  [
    /^(pino|pino-std-serializers|fast-redact|@pinojs\/redact|sonic-boom|thread-stream|on-exit-leak-free|quick-format-unescaped|atomic-sleep|safe-stable-stringify|fast-safe-stringify)\//,
    "logging (lib/log.ts, pino)",
  ],
  [/^(react|react-dom)\//, "React"],
];

/** The layer of a frame, or null for a native frame that is charged to its caller. */
export function layerOf(frame: CpuProfileNode["callFrame"], source: SourcePosition | null): string | null {
  const { functionName, url } = frame;
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(program)" || functionName === "(root)") return "V8/native, unattributed";
  if (functionName === IDLE) return IDLE;
  if (!url)
    return /^(stringify|parse|JSON\.)/.test(functionName)
      ? "JSON and mapping (exact JSON, row mapping, masking)"
      : null;
  if (url.startsWith("wasm://")) return "Prisma (client, query compiler, adapter)";
  if (url.startsWith("node:")) {
    if (/^node:internal\/(deps\/undici|webstreams|streams\/web|fetch|url)/.test(url)) {
      return "undici, web streams, URL (Next's Request/Response)";
    }
    if (/async_hooks|async_local_storage|internal\/process\/task_queues|internal\/timers/.test(url)) {
      return "promises, timers, AsyncLocalStorage";
    }
    if (/internal\/util\b/.test(url) && /deprecate/.test(functionName)) return "util.deprecate wrappers";
    return "Node.js core (http, net, streams, events)";
  }
  const file = source?.file ?? url;
  const pkg = /(?:^|\/)node_modules\/(.+)$/.exec(file)?.[1];
  if (pkg) {
    for (const [pattern, layer] of PACKAGE_LAYERS) if (pattern.test(pkg)) return layer;
    return "other packages";
  }
  for (const [pattern, layer] of PROJECT_LAYERS) if (pattern.test(file)) return layer;
  if (/\[turbopack\]_runtime|\.next\//.test(file)) return "Next.js";
  return "other packages";
}

/** Reads source maps lazily, once per script; frames of scripts without one keep their URL. */
export function sourceMapResolver(repoRoot: string): SourceResolver {
  const maps = new Map<string, SourceMap | null>();
  const load = (file: string): SourceMap | null => {
    if (!maps.has(file)) {
      try {
        maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))));
      } catch {
        maps.set(file, null);
      }
    }
    return maps.get(file) ?? null;
  };
  const relative = (file: string) => {
    const rel = path.relative(repoRoot, file);
    return rel.startsWith("..") ? file : rel.split(path.sep).join("/");
  };
  return (url, line, column) => {
    const file = url.startsWith("file://") ? fileURLToPath(url) : url;
    if (!path.isAbsolute(file)) return { file: url, line: line + 1 };
    const map = /\.next[^/]*\/server\//.test(file) ? load(file) : null;
    const entry = map?.findEntry(line, column) as
      | { originalSource?: string; originalLine?: number }
      | undefined;
    if (entry?.originalSource) {
      const original = decodeURIComponent(entry.originalSource.replace(/^file:\/\//, ""));
      const absolute = path.isAbsolute(original) ? original : path.resolve(path.dirname(file), original);
      return { file: relative(absolute), line: (entry.originalLine ?? 0) + 1 };
    }
    return { file: relative(file), line: line + 1 };
  };
}

export interface LayerShare {
  layer: string;
  self: number;
  inclusive: number;
}
export interface ProfileSummary {
  busySamples: number;
  /** The profile's mean time between samples (µs): a sample stands for this much main-thread time. */
  sampleUs: number;
  layers: LayerShare[];
  /** The project's own functions (lib/, app/) by self samples. */
  projectFunctions: { name: string; at: string; self: number }[];
}

/** Self and inclusive shares of the busy (non-idle) samples per layer, and the project's top functions. */
export function summarizeProfile(profile: CpuProfile, resolve: SourceResolver): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const positions = new Map<number, SourcePosition | null>();
  const positionOf = (node: CpuProfileNode) => {
    if (!positions.has(node.id)) {
      const { url, lineNumber, columnNumber } = node.callFrame;
      positions.set(node.id, url && !url.startsWith("node:") ? resolve(url, lineNumber, columnNumber) : null);
    }
    return positions.get(node.id) ?? null;
  };
  const ownLayer = new Map<number, string | null>();
  const layerOfNode = (node: CpuProfileNode) => {
    if (!ownLayer.has(node.id)) ownLayer.set(node.id, layerOf(node.callFrame, positionOf(node)));
    return ownLayer.get(node.id) ?? null;
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, { name: string; at: string; self: number }>();
  let busy = 0;
  for (const id of profile.samples) {
    let node = byId.get(id);
    if (!node || node.callFrame.functionName === IDLE) continue;
    busy += 1;
    // Self: the first frame up the stack that has a layer of its own.
    let selfLayer: string | null = null;
    const seen = new Set<string>();
    while (node) {
      const layer = layerOfNode(node);
      if (layer) {
        if (!selfLayer) {
          selfLayer = layer;
          recordFunction(functions, node, positionOf(node));
        }
        seen.add(layer);
      }
      const up = parent.get(node.id);
      node = up === undefined ? undefined : byId.get(up);
    }
    const key = selfLayer ?? "V8/native, unattributed";
    self.set(key, (self.get(key) ?? 0) + 1);
    for (const layer of seen) inclusive.set(layer, (inclusive.get(layer) ?? 0) + 1);
  }
  const layers = [...new Set([...self.keys(), ...inclusive.keys()])]
    .map((layer) => ({ layer, self: self.get(layer) ?? 0, inclusive: inclusive.get(layer) ?? 0 }))
    .sort((a, b) => b.self - a.self);
  const projectFunctions = [...functions.values()].sort((a, b) => b.self - a.self);
  const span = (profile.endTime ?? 0) - (profile.startTime ?? 0);
  const sampleUs = span > 0 && profile.samples.length > 0 ? span / profile.samples.length : 0;
  return { busySamples: busy, sampleUs, layers, projectFunctions };
}

function recordFunction(
  functions: Map<string, { name: string; at: string; self: number }>,
  node: CpuProfileNode,
  at: SourcePosition | null,
): void {
  if (!at || !/^(lib|app)\//.test(at.file)) return;
  const name = node.callFrame.functionName || "(anonymous)";
  const key = `${name} ${at.file}:${at.line}`;
  const entry = functions.get(key) ?? { name, at: `${at.file}:${at.line}`, self: 0 };
  entry.self += 1;
  functions.set(key, entry);
}

/** Markdown: a row per layer, shares of busy samples. */
export function formatSummary(summary: ProfileSummary, topFunctions = 12): string {
  const pct = (n: number) => `${((100 * n) / Math.max(1, summary.busySamples)).toFixed(1)}%`;
  const lines = [
    `${summary.busySamples} busy samples`,
    "",
    "| layer | self | inclusive |",
    "|---|--:|--:|",
    ...summary.layers.map((l) => `| ${l.layer} | ${pct(l.self)} | ${pct(l.inclusive)} |`),
    "",
    "| the project's functions (self) | at | share |",
    "|---|---|--:|",
    ...summary.projectFunctions
      .slice(0, topFunctions)
      .map((f) => `| \`${f.name}\` | ${f.at} | ${pct(f.self)} |`),
  ];
  return lines.join("\n");
}

/**
 * Two servers' main-thread time per request, layer by layer (µs: samples × the mean sample interval ÷ requests),
 * and the CPU each spent outside its main thread's JavaScript (helper threads, the kernel, GC threads): the
 * process's CPU time per request minus the main thread's busy time.
 */
export function formatComparison(
  a: { name: string; summary: ProfileSummary; requests: number; cpuUsPerRequest: number },
  b: { name: string; summary: ProfileSummary; requests: number; cpuUsPerRequest: number },
): string {
  const perRequest = (side: typeof a, samples: number) => (samples * side.summary.sampleUs) / side.requests;
  const layers = [...new Set([...a.summary.layers, ...b.summary.layers].map((l) => l.layer))];
  const selfOf = (side: typeof a, layer: string) =>
    perRequest(side, side.summary.layers.find((l) => l.layer === layer)?.self ?? 0);
  const rows = layers
    .map((layer) => ({ layer, a: selfOf(a, layer), b: selfOf(b, layer) }))
    .sort((x, y) => y.a - y.b - (x.a - x.b));
  const busy = (side: typeof a) => perRequest(side, side.summary.busySamples);
  const us = (n: number) => n.toFixed(0);
  const signed = (n: number) => `${n >= 0 ? "+" : "−"}${Math.abs(n).toFixed(0)}`;
  return [
    `| µs per request | ${a.name} | ${b.name} | difference |`,
    "|---|--:|--:|--:|",
    ...rows.map((r) => `| ${r.layer} | ${us(r.a)} | ${us(r.b)} | ${signed(r.a - r.b)} |`),
    `| **main thread, all layers** | ${us(busy(a))} | ${us(busy(b))} | ${signed(busy(a) - busy(b))} |`,
    `| other threads and the kernel | ${us(a.cpuUsPerRequest - busy(a))} | ${us(b.cpuUsPerRequest - busy(b))} | ${signed(a.cpuUsPerRequest - busy(a) - (b.cpuUsPerRequest - busy(b)))} |`,
    `| **process CPU (utime + stime)** | ${us(a.cpuUsPerRequest)} | ${us(b.cpuUsPerRequest)} | ${signed(a.cpuUsPerRequest - b.cpuUsPerRequest)} |`,
  ].join("\n");
}
