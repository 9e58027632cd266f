import type { KycStatus } from "@/platform/schemas/enums";

export type Tone = "neutral" | "positive" | "warning" | "negative" | "info";

export const KYC_LABELS: Record<KycStatus, { label: string; tone: Tone }> = {
  not_started: { label: "Not started", tone: "neutral" },
  pending: { label: "Pending", tone: "warning" },
  in_review: { label: "In review", tone: "info" },
  approved: { label: "Approved", tone: "positive" },
  rejected: { label: "Rejected", tone: "negative" },
};

export const EVENT_TYPE_LABELS: Record<string, string> = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  bonus: "Bonus",
  bet: "Bet",
  win: "Win",
  adjustment: "Adjustment",
  refund: "Refund",
};

/** withdrawal_status is free text; the known values get words and a tone, others are shown as they are. */
export function withdrawalStatusLabel(status: string | null): { label: string; tone: Tone } {
  switch (status) {
    case null:
      return { label: "Unknown", tone: "neutral" };
    case "allowed":
      return { label: "Allowed", tone: "positive" };
    case "on_hold":
      return { label: "On hold", tone: "warning" };
    case "blocked":
      return { label: "Blocked", tone: "negative" };
    default:
      return { label: humanize(status), tone: "neutral" };
  }
}

const ACRONYMS = new Set(["vip", "kyc", "sms", "ftd"]);

/** `high_roller` → "High roller", `vip_gold` → "VIP gold". */
export function humanize(value: string): string {
  const words = value
    .replace(/[_-]+/g, " ")
    .trim()
    .split(/\s+/)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w))
    .join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
