import { describe, expect, it } from "vitest";
import { contactKind, emailTerm, escapeLike, nameWords, phoneDigitsTerm } from "./contact-terms.ts";

describe("emailTerm", () => {
  it("a whole address, lower-cased and trimmed", () => {
    expect(emailTerm(" Zoe.Cote@Example.ORG ")).toBe("zoe.cote@example.org");
  });
  it("not an address: no @, two @, nothing on one side, spaces", () => {
    for (const q of ["zoe", "zoe@", "@example.org", "a@b@c", "zoe cote@example.org", ""]) {
      expect(emailTerm(q), q).toBeNull();
    }
  });
});

describe("phoneDigitsTerm", () => {
  it("the digits, the international 00 read as +", () => {
    expect(phoneDigitsTerm("+44 7700 900189")).toBe("447700900189");
    expect(phoneDigitsTerm("0044 (7700) 900-189")).toBe("447700900189");
    expect(phoneDigitsTerm("447700900189")).toBe("447700900189");
    expect(phoneDigitsTerm("+00 1234567")).toBe("001234567");
  });
  it("too short, too long, letters or a + inside: not a number", () => {
    for (const q of ["123456", "+1234567890123456", "P000007", "+44 77+00 900189", "7700 900189 x2", ""]) {
      expect(phoneDigitsTerm(q), q).toBeNull();
    }
  });
});

describe("contactKind, nameWords, escapeLike", () => {
  it("says what a term is", () => {
    expect(contactKind("a@b.c")).toBe("email");
    expect(contactKind("+1 514 555 0142")).toBe("phone");
    expect(contactKind("Zoé Côté")).toBeNull();
  });
  it("splits a name into at most 8 words", () => {
    expect(nameWords("  zoe   cote ")).toEqual(["zoe", "cote"]);
    expect(nameWords("a b c d e f g h i j")).toHaveLength(8);
  });
  it("escapes LIKE's wildcards", () => {
    expect(escapeLike("100%_\\")).toBe("100\\%\\_\\\\");
  });
});
