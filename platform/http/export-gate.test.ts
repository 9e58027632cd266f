import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/platform/problems/problem";
import { restoreEnv, stubEnv } from "@/test/support/env";
import { acquireExportSlot } from "./export-gate.ts";

const g = globalThis as unknown as { parExportGate?: unknown; parExportsByCaller?: unknown };

function fresh(env: Record<string, string>) {
  stubEnv(env);
  delete g.parExportGate;
  delete g.parExportsByCaller;
}

describe("export slots", () => {
  beforeEach(() => fresh({ EXPORT_CONCURRENCY: "5", EXPORT_PER_CALLER: "2", EXPORT_QUEUE_WAIT_MS: "50" }));
  afterEach(() => {
    restoreEnv();
    fresh({});
  });

  it("one caller holds at most EXPORT_PER_CALLER; beyond it a 429 with Retry-After, others unaffected", async () => {
    const held = [await acquireExportSlot("ip:10.0.0.1"), await acquireExportSlot("ip:10.0.0.1")];
    const refused = await acquireExportSlot("ip:10.0.0.1").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 429,
      type: expect.stringMatching(/\/problems\/too-many-exports$/),
      headers: { "Retry-After": "10" },
    });
    const other = await acquireExportSlot("sub:someone-else");
    other();
    held[0]?.(); // a second release counts once
    const again = await acquireExportSlot("ip:10.0.0.1");
    expect(await acquireExportSlot("ip:10.0.0.1").catch((e: unknown) => e)).toMatchObject({ status: 429 });
    again();
    held[1]?.();
  });

  it("a caller refused a slot (503) does not keep its place in the per-caller count", async () => {
    fresh({ EXPORT_CONCURRENCY: "1", EXPORT_PER_CALLER: "2", EXPORT_QUEUE_WAIT_MS: "20" });
    const first = await acquireExportSlot("ip:10.0.0.2");
    for (let i = 0; i < 3; i++) {
      expect(await acquireExportSlot("ip:10.0.0.3").catch((e: unknown) => e)).toMatchObject({ status: 503 });
    }
    first();
    (await acquireExportSlot("ip:10.0.0.3"))();
  });
});
