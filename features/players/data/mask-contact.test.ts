import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskEmail, maskPhone } from "./mask-contact.ts";

describe("contact masking", () => {
  it("keeps the first character and the domain of an e-mail address", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j***@example.com");
    expect(maskEmail("ünal@beispiel.de")).toBe("ü***@beispiel.de");
    expect(maskEmail("x@y.io")).toBe("x***@y.io");
    expect(maskEmail("not-an-address")).toBe("***");
    expect(maskEmail("@example.com")).toBe("***");
  });

  it("keeps the international prefix and the last two digits of a phone number", () => {
    expect(maskPhone("+44 7700 900189")).toBe("+44 ••• ••• 89");
    expect(maskPhone("+1 415 555 0134")).toBe("+1 ••• ••• 34");
    expect(maskPhone("+55 11 98218288")).toBe("+55 ••• ••• 88");
    expect(maskPhone("07700 900189")).toBe("••• ••• 89");
    expect(maskPhone("123")).toBe("•••");
  });

  it("never reveals more than the first character of the local part or two digits", () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        const masked = maskEmail(email);
        const at = email.lastIndexOf("@");
        expect(masked.slice(masked.lastIndexOf("@"))).toBe(email.slice(at));
        expect(masked.slice(0, masked.lastIndexOf("@"))).toBe(`${Array.from(email)[0]}***`);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^\+\d{1,3}( \d{2,5}){2,4}$/), (phone) => {
        const masked = maskPhone(phone);
        const shown = masked.replace(/^\+\d{1,3} /, "").replace(/\D/g, "");
        expect(shown.length).toBeLessThanOrEqual(2);
      }),
      { numRuns: 2000 },
    );
  });
});
