import type { PlayerProfile, PlayerSummary } from "@/features/players/schema/player";

/*
 * Callers without the players:pii scope get contact data masked in the response itself: enough to
 * recognise a player on the phone ("the address starting with j at example.com", "the number ending 89"),
 * not enough to contact them.
 */

const BULLETS = "•••";

/** "jane.doe@example.com" → "j***@example.com"; anything without a usable @ → "***". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return "***";
  const first = Array.from(email.slice(0, at))[0] ?? "";
  return `${first}***${email.slice(at)}`;
}

/**
 * "+44 7700 900189" → "+44 ••• ••• 89": the international prefix (when written with +) and the last two
 * digits stay; every other digit is hidden, and so is the number's grouping. Fewer than 6 digits → "•••".
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  if (digits.length < 6) return BULLETS;
  const prefix = /^\s*\+(\d{1,3})(?=[\s.-]|\(|$)/.exec(phone)?.[1];
  const head = prefix ? `+${prefix} ` : "";
  return `${head}${BULLETS} ${BULLETS} ${digits.slice(-2)}`;
}

export function maskProfileContact(profile: PlayerProfile): PlayerProfile {
  return {
    ...profile,
    email: profile.email === null ? null : maskEmail(profile.email),
    phone: profile.phone === null ? null : maskPhone(profile.phone),
  };
}

export function maskSummaryContact(summary: PlayerSummary): PlayerSummary {
  return {
    ...summary,
    email: summary.email === null ? null : maskEmail(summary.email),
    phone: summary.phone === null ? null : maskPhone(summary.phone),
  };
}
