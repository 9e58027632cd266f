import { Ban, CircleCheck, CircleDashed, CircleX, Clock, Hourglass, ShieldCheck } from "lucide-react";
import { KYC_LABELS, withdrawalStatusLabel } from "@/platform/format/labels";
import type { KycStatus } from "@/platform/schemas/enums";
import { Badge } from "../../../platform/ui/badge.tsx";

const iconClass = "size-3.5";

const KYC_ICONS: Record<KycStatus, typeof Clock> = {
  not_started: CircleDashed,
  pending: Clock,
  in_review: Hourglass,
  approved: ShieldCheck,
  rejected: CircleX,
};

export function KycBadge({ status }: { status: KycStatus }) {
  const { label, tone } = KYC_LABELS[status];
  const Icon = KYC_ICONS[status];
  return (
    <Badge tone={tone} icon={<Icon aria-hidden="true" className={iconClass} />}>
      <span className="sr-only">KYC status: </span>
      <span aria-hidden="true">KYC </span>
      {label}
    </Badge>
  );
}

/** `strong`: the solid form for the player's header, where a block must be impossible to miss. */
export function BlockedBadge({ blocked, strong = false }: { blocked: boolean; strong?: boolean }) {
  return blocked ? (
    <Badge tone="negative" strong={strong} icon={<Ban aria-hidden="true" className={iconClass} />}>
      Blocked
    </Badge>
  ) : (
    <Badge tone="neutral" icon={<CircleCheck aria-hidden="true" className={iconClass} />}>
      Not blocked
    </Badge>
  );
}

/** `strong`: a restriction (on hold, blocked) in the solid form, as for BlockedBadge. */
export function WithdrawalBadge({ status, strong = false }: { status: string | null; strong?: boolean }) {
  const { label, tone } = withdrawalStatusLabel(status);
  const Icon = tone === "positive" ? CircleCheck : tone === "negative" ? Ban : Clock;
  const restricted = tone === "negative" || tone === "warning";
  return (
    <Badge tone={tone} strong={strong && restricted} icon={<Icon aria-hidden="true" className={iconClass} />}>
      Withdrawals {label.toLowerCase()}
    </Badge>
  );
}
