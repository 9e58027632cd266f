import { readFileSync } from "node:fs";
import type { CurvePoint } from "./size-curve.ts";

/*
 * The size curve's points (bench-results/size-curve.ndjson) as a Markdown table and an SVG plot: warm and cold
 * p99 per scenario against the number of transactions, on a log scale of milliseconds.
 */

const mib = (bytes: number) => `${(bytes / 2 ** 20).toLocaleString("en", { maximumFractionDigits: 0 })} MiB`;
const msText = (x: number) => (x < 10 ? x.toFixed(1) : Math.round(x).toString());

function readPoints(file: string): CurvePoint[] {
  const byLabel = new Map<string, CurvePoint>();
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const point = JSON.parse(line) as CurvePoint;
    byLabel.set(point.label, point); // the latest run of a size counts
  }
  return [...byLabel.values()].sort((a, b) => a.transactions - b.transactions);
}

function markdownTable(points: CurvePoint[]): string {
  const head = `| scenario | ${points.map((p) => `${p.label} warm p50 / p99`).join(" | ")} | ${points.map((p) => `${p.label} cold p50 / p99`).join(" | ")} |`;
  const rule = `| --- |${" --- |".repeat(points.length * 2)}`;
  const names = points[0]?.scenarios.map((s) => s.name) ?? [];
  const rows = names.map((name) => {
    const cell = (p: CurvePoint, kind: "warm" | "cold") => {
      const s = p.scenarios.find((x) => x.name === name);
      return s ? `${msText(s[kind].p50)} / ${msText(s[kind].p99)}` : "—";
    };
    return `| ${name} | ${points.map((p) => cell(p, "warm")).join(" | ")} | ${points.map((p) => cell(p, "cold")).join(" | ")} |`;
  });
  const sizes = points.map((p) => {
    const parts = p.sizes.map((s) => `${s.table} ${mib(s.heapBytes)} + ${mib(s.indexBytes)} indexes`);
    const gen = p.generateSeconds === null ? "" : `; db:generate ${Math.round(p.generateSeconds)} s`;
    return `- **${p.label}** (${p.transactions.toLocaleString("en")} transactions, ${p.players.toLocaleString("en")} players${gen}): ${parts.join(", ")}`;
  });
  return [`Latency in ms at concurrency 1.`, "", head, rule, ...rows, "", ...sizes, ""].join("\n");
}

/** One colour a scenario (14 of them): Tableau's 10 and four darker ones. */
const COLOURS = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#9467bd",
  "#ff7f0e",
  "#8c564b",
  "#e377c2",
  "#17becf",
  "#7f7f7f",
  "#bcbd22",
  "#08306b",
  "#67000d",
  "#00441b",
  "#3f007d",
];

function svgPlot(points: CurvePoint[]): string {
  const width = 900;
  const height = 520;
  const left = 70;
  const right = 230;
  const top = 30;
  const bottom = 60;
  const xs = points.map((p) => p.transactions);
  const names = points[0]?.scenarios.map((s) => s.name) ?? [];
  const all = points
    .flatMap((p) => p.scenarios.flatMap((s) => [s.warm.p99, s.cold.p99]))
    .filter((v) => v > 0);
  const [yMin, yMax] = [Math.max(0.1, Math.min(...all) / 1.5), Math.max(...all) * 1.5];
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const x = (v: number) => left + ((v - xMin) / Math.max(1, xMax - xMin)) * (width - left - right);
  const y = (v: number) =>
    top +
    (1 - (Math.log10(v) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) *
      (height - top - bottom);
  const lines = names.flatMap((name, i) => {
    const colour = COLOURS[i % COLOURS.length];
    return (["warm", "cold"] as const).map((kind) => {
      const pts = points.map((p) => {
        const s = p.scenarios.find((q) => q.name === name);
        return `${x(p.transactions).toFixed(1)},${y(Math.max(yMin, s?.[kind].p99 ?? yMin)).toFixed(1)}`;
      });
      const dash = kind === "cold" ? ' stroke-dasharray="5 4"' : "";
      return `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${pts.join(" ")}"/>`;
    });
  });
  const legend = names.map(
    (name, i) =>
      `<text x="${width - right + 14}" y="${top + 16 * i + 10}" font-size="12" fill="${COLOURS[i % COLOURS.length]}">${name}</text>`,
  );
  const yTicks = [0.1, 1, 10, 100, 1_000, 10_000].filter((v) => v >= yMin && v <= yMax);
  const axes = [
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#333"/>`,
    ...points.map(
      (p) =>
        `<text x="${x(p.transactions)}" y="${height - bottom + 20}" font-size="12" text-anchor="middle">${p.label}</text>`,
    ),
    ...yTicks.map(
      (v) =>
        `<text x="${left - 8}" y="${y(v) + 4}" font-size="12" text-anchor="end">${v} ms</text><line x1="${left}" y1="${y(v)}" x2="${width - right}" y2="${y(v)}" stroke="#ddd"/>`,
    ),
    `<text x="${(left + width - right) / 2}" y="${height - 15}" font-size="13" text-anchor="middle">transactions (p99 at c1; solid warm, dashed cold)</text>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" role="img" aria-labelledby="size-curve-title"><title id="size-curve-title">p99 at concurrency 1 of every bench scenario against the number of transactions, warm (solid) and cold (dashed)</title><rect width="100%" height="100%" fill="#fff"/>${axes.join("")}${lines.join("")}${legend.join("")}</svg>\n`;
}

export function plotCurve(file: string): { markdown: string; svg: string } {
  const points = readPoints(file);
  if (points.length === 0) throw new Error(`${file}: no points yet`);
  return { markdown: markdownTable(points), svg: svgPlot(points) };
}
