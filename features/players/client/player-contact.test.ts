import { describe, expect, it } from "vitest";
import { telHref } from "./player-contact.ts";

describe("telHref", () => {
  it("keeps only the digits and the plus of a written phone number", () => {
    expect(telHref("+44 20 7946-0958")).toBe("tel:+442079460958");
    expect(telHref("(030) 123 456")).toBe("tel:030123456");
    expect(telHref("+1.555.0100")).toBe("tel:+15550100");
  });
});
