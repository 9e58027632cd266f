import { describe, expect, it } from "vitest";
import { DEMO_REFERENCE_NOW } from "@/prisma/demo-data/clock";
import { DEMO_NOW_ISO } from "./demo-clock.mjs";

describe("the launcher's demo clock", () => {
  it("is the demo data's own now", () => {
    expect(DEMO_NOW_ISO).toBe(new Date(DEMO_REFERENCE_NOW).toISOString());
  });
});
