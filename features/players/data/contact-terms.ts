/*
 * What a lookup term can be besides a name or an id: an e-mail address or a phone number typed in full. Pure
 * (no database), shared by the search (features/players/data/search-players.ts) and the lookup's wording in the browser.
 *
 * Contact fields are matched exactly, never in part, for callers who may not see them: a guess confirms one
 * address or number at a time (and is audited), it never lists the addresses that start with "jo".
 */

/** The shortest and longest phone numbers matched: E.164 allows up to 15 digits; fewer than 7 is not a number. */
const MIN_PHONE_DIGITS = 7;
const MAX_PHONE_DIGITS = 15;

/** Something that can only be an e-mail address: one "@" between a local part and a domain, no spaces. */
export function emailTerm(q: string): string | null {
  const t = q.trim();
  return /^[^\s@]+@[^\s@]+$/.test(t) ? t.toLowerCase() : null;
}

/**
 * A phone number as its digits, the way the index keeps stored numbers: "+44 7700 900189", "0044 7700 900189"
 * and "447700900189" are one number (E.164 without its "+": the international "00" is the same prefix). Only
 * digits, spaces, dots, dashes, slashes and brackets around them, and at most one leading "+"; null otherwise.
 */
export function phoneDigitsTerm(q: string): string | null {
  const t = q.trim();
  if (!/^\+?[\d\s().\-/]+$/.test(t)) return null;
  let digits = t.replace(/\D/g, "");
  if (!t.startsWith("+") && digits.startsWith("00")) digits = digits.slice(2);
  return digits.length >= MIN_PHONE_DIGITS && digits.length <= MAX_PHONE_DIGITS ? digits : null;
}

/** The kind of contact a term names, for the lookup's wording: matched exactly, or not a contact at all. */
export function contactKind(q: string): "email" | "phone" | null {
  if (emailTerm(q)) return "email";
  if (phoneDigitsTerm(q)) return "phone";
  return null;
}

/** The words of a name term, each matched anywhere in the name (any order): "cote zoe" finds "Zoé Côté". */
export function nameWords(q: string): string[] {
  return q.trim().split(/\s+/u).filter(Boolean).slice(0, 8);
}

/** LIKE's wildcards and its escape character, escaped: "_" is an underscore, "%" a percent sign. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, "\\$&");
