import { describe, expect, it } from "vitest";
import {
  type CpuProfile,
  type CpuProfileNode,
  formatComparison,
  layerOf,
  type SourceResolver,
  summarizeProfile,
} from "./profile-layers.ts";

const frame = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
const at = (file: string) => ({ file, line: 1 });

describe("layerOf", () => {
  it("charges packages by their path under node_modules and the project's files by folder", () => {
    expect(layerOf(frame("x", "file:///r/x.js"), at("node_modules/next/dist/server/base-server.js"))).toBe(
      "Next.js",
    );
    expect(
      layerOf(frame("x", "file:///r/x.js"), at("node_modules/next/dist/compiled/compression/index.js")),
    ).toBe("Next.js: compression");
    expect(layerOf(frame("x", "file:///r/x.js"), at("node_modules/pg-protocol/dist/parser.js"))).toBe("pg");
    expect(
      layerOf(frame("x", "file:///r/x.js"), at("node_modules/@prisma/client/runtime/client.js")),
    ).toMatch(/^Prisma/);
    expect(layerOf(frame("x", "file:///r/x.js"), at("node_modules/jose/dist/webapi/jwt/verify.js"))).toMatch(
      /^authentication/,
    );
    expect(layerOf(frame("x", "file:///r/x.js"), at("lib/http/api-handler.ts"))).toMatch(/^withApi/);
    expect(layerOf(frame("x", "file:///r/x.js"), at("lib/players/get-player-profile.ts"))).toBe(
      "the rest of the project's code",
    );
    expect(layerOf(frame("x", "file:///r/x.js"), at("node_modules/left-pad/index.js"))).toBe(
      "other packages",
    );
  });

  it("tells Node's own modules apart, and V8's pseudo-frames", () => {
    expect(layerOf(frame("writev", "node:internal/stream_base_commons"), null)).toMatch(/^Node\.js core/);
    expect(layerOf(frame("x", "node:internal/deps/undici/undici"), null)).toMatch(/^undici/);
    expect(layerOf(frame("run", "node:internal/async_local_storage/async_hooks"), null)).toMatch(/^promises/);
    expect(layerOf(frame("(garbage collector)"), null)).toBe("garbage collection");
    expect(layerOf(frame("(idle)"), null)).toBe("(idle)");
    expect(layerOf(frame("x", "wasm://wasm/abc"), null)).toMatch(/^Prisma/);
  });

  it("native frames go to their caller, except JSON's", () => {
    expect(layerOf(frame("replace"), null)).toBeNull();
    expect(layerOf(frame("stringify"), null)).toMatch(/^JSON/);
  });
});

describe("summarizeProfile", () => {
  // root → handler (api-handler.ts) → native replace (charged to the handler)
  //                                  → Prisma (via its own file)
  // root → (garbage collector); root → (idle)
  const nodes: CpuProfileNode[] = [
    { id: 1, callFrame: frame("(root)"), children: [2, 5, 6] },
    { id: 2, callFrame: frame("handler", "file:///repo/.next/server/chunks/a.js"), children: [3, 4] },
    { id: 3, callFrame: frame("replace") },
    { id: 4, callFrame: frame("findUnique", "file:///repo/.next/server/chunks/b.js") },
    { id: 5, callFrame: frame("(garbage collector)") },
    { id: 6, callFrame: frame("(idle)") },
  ];
  const files: Record<string, string> = {
    "file:///repo/.next/server/chunks/a.js": "lib/http/api-handler.ts",
    "file:///repo/.next/server/chunks/b.js": "node_modules/@prisma/client/runtime/client.js",
  };
  const resolve: SourceResolver = (url) => ({ file: files[url] ?? url, line: 10 });
  const profile: CpuProfile = { nodes, samples: [2, 3, 3, 4, 5, 6, 6, 6], startTime: 0, endTime: 8_000 };

  it("counts busy samples by the layer of their first attributable frame, and inclusively", () => {
    const summary = summarizeProfile(profile, resolve);
    expect(summary.busySamples).toBe(5);
    expect(summary.sampleUs).toBe(1_000);
    const share = (layer: RegExp) => summary.layers.find((l) => layer.test(l.layer));
    expect(share(/^withApi/)).toMatchObject({ self: 3, inclusive: 4 });
    expect(share(/^Prisma/)).toMatchObject({ self: 1, inclusive: 1 });
    expect(share(/^garbage/)).toMatchObject({ self: 1, inclusive: 1 });
    expect(summary.projectFunctions[0]).toEqual({
      name: "handler",
      at: "lib/http/api-handler.ts:10",
      self: 3,
    });
  });

  it("compares two servers per request, the busiest difference first", () => {
    const summary = summarizeProfile(profile, resolve);
    const text = formatComparison(
      { name: "product", summary, requests: 1, cpuUsPerRequest: 6_000 },
      { name: "floor", summary: { ...summary, layers: [] }, requests: 1, cpuUsPerRequest: 5_500 },
    );
    const lines = text.split("\n");
    expect(lines[2]).toMatch(/^\| withApi .* \| 3000 \| 0 \| \+3000 \|$/);
    expect(text).toContain("| other threads and the kernel | 1000 | 500 | +500 |");
    expect(text).toContain("| **process CPU (utime + stime)** | 6000 | 5500 | +500 |");
  });
});
