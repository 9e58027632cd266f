import type { Tone } from "@/platform/format/labels";
import type { SortValue, StatusValue } from "./transaction-url-state.ts";

/** A transaction's state in words and tone: failed and cancelled moved no money, a support agent must see them. */
export const TRANSACTION_STATUS_LABELS: Record<StatusValue, { label: string; tone: Tone }> = {
  pending: { label: "Pending", tone: "warning" },
  completed: { label: "Completed", tone: "neutral" },
  failed: { label: "Failed", tone: "negative" },
  cancelled: { label: "Cancelled", tone: "neutral" },
};

/** How each order reads, in captions and in the phone's sort menu. */
export const SORT_LABELS: Record<SortValue, string> = {
  date_desc: "newest first",
  date_asc: "oldest first",
  amount_desc: "largest amount first (by size)",
  amount_asc: "smallest amount first (by size)",
};
