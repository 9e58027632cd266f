import { createColumnHelper } from "@tanstack/react-table";
import Link from "next/link";
import { daysAgo } from "@/features/portfolio/client/portfolio-view";
import type { PortfolioData, PortfolioPlayerData } from "@/features/portfolio/client/queries";
import type {
  PortfolioColumnMeta,
  PortfolioColumns,
  portfolioFeatures,
} from "@/features/portfolio/client/use-portfolio-table";
import { BlockedBadge, KycBadge, WithdrawalBadge } from "@/features/transactions/client";
import { directionOf, formatMoney } from "@/platform/format/money";
import type { PortfolioFlag } from "@/platform/schemas/enums";
import { cn } from "@/platform/ui/cn";
import { FlagBadge } from "./flag-badge.tsx";

const helper = createColumnHelper<typeof portfolioFeatures, PortfolioPlayerData>();

const figure = (sort: PortfolioColumnMeta["sort"], what: string): PortfolioColumnMeta => ({
  align: "end",
  sort,
  sortLabel: `Sort by ${what}`,
});

const missing = <span className="text-slate-500">—</span>;

/** The badges a manager must not miss: blocked, KYC not approved, withdrawals not allowed. */
export function StatusBadges({ player }: { player: PortfolioPlayerData }) {
  const kycShown = player.kyc_status !== "approved";
  const withdrawalsShown = player.withdrawal_status !== "allowed";
  if (!player.blocked && !kycShown && !withdrawalsShown) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {player.blocked ? <BlockedBadge blocked /> : null}
      {kycShown ? <KycBadge status={player.kyc_status} /> : null}
      {withdrawalsShown && !player.blocked ? <WithdrawalBadge status={player.withdrawal_status} /> : null}
    </span>
  );
}

export function PlayerCell({ player }: { player: PortfolioPlayerData }) {
  return (
    <div className="min-w-0">
      <Link
        href={`/players/${encodeURIComponent(player.id)}`}
        className="font-medium text-indigo-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {player.name}
      </Link>
      <span className="block font-mono text-xs text-slate-600">
        {player.id} · {player.currency}
      </span>
      <StatusBadges player={player} />
    </div>
  );
}

/** A 30-day figure and its change against the 30 days before, in the player's currency. */
export function FigureCell({
  value,
  currency,
}: {
  value: PortfolioPlayerData["deposits"];
  currency: string;
}) {
  const direction = directionOf(value.change);
  return (
    <span className="inline-flex flex-col items-end whitespace-nowrap tabular-nums">
      <span className="font-medium text-slate-900">{formatMoney(value.current, currency)}</span>
      <span
        className={cn(
          "text-xs",
          direction === "in" && "text-emerald-700",
          direction === "out" && "text-red-700",
          direction === "none" && "text-slate-600",
        )}
      >
        {direction === "none" ? "no change" : formatMoney(value.change, currency, { signed: true })}
        <span className="sr-only"> against the previous 30 days</span>
      </span>
    </span>
  );
}

export function PendingCell({ player }: { player: PortfolioPlayerData }) {
  const { count, amount } = player.pending_withdrawals;
  if (count === 0) return missing;
  return (
    <span className="inline-flex flex-col items-end whitespace-nowrap tabular-nums">
      <span className="font-medium text-slate-900">{formatMoney(amount, player.currency)}</span>
      <span className="text-xs text-slate-600">{count === 1 ? "1 withdrawal" : `${count} withdrawals`}</span>
    </span>
  );
}

export function FlagList({
  player,
  rules,
  onFlag,
  stacked = true,
}: {
  player: PortfolioPlayerData;
  rules: PortfolioData["flag_rules"];
  onFlag: (flag: PortfolioFlag) => void;
  /** One under the other (the table's narrow column); else in a wrapping row (a card). */
  stacked?: boolean;
}) {
  if (player.flags.length === 0) return <span className="text-slate-600">None</span>;
  return (
    <span className={cn("flex gap-1", stacked ? "flex-col items-start" : "flex-wrap")}>
      {player.flags.map((flag) => (
        <FlagBadge key={flag} flag={flag} rules={rules} currency={player.currency} onSelect={onFlag} />
      ))}
    </span>
  );
}

/** A 30-day figure's column: the amount and its change; `what` names it in its sort button's label. */
const thirtyDayColumn = (
  key: "deposits" | "withdrawals" | "net_deposits" | "ggr",
  header: string,
  what: string,
) =>
  helper.accessor(key, {
    header,
    cell: (info) => <FigureCell value={info.getValue()} currency={info.row.original.currency} />,
    meta: figure(key, `${what} of the last 30 days`),
  });

/** The portfolio's columns: each says how it aligns and which order its heading sets (meta). */
export function portfolioColumns(
  rules: PortfolioData["flag_rules"],
  onFlag: (flag: PortfolioFlag) => void,
): PortfolioColumns {
  return helper.columns([
    helper.accessor("name", {
      id: "player",
      header: "Player",
      cell: (info) => <PlayerCell player={info.row.original} />,
      meta: { align: "start", sort: "player", sortLabel: "Sort by player name" },
    }),
    helper.accessor("flags", {
      header: "Flags",
      cell: (info) => <FlagList player={info.row.original} rules={rules} onFlag={onFlag} />,
      // Beside the name: what needs attention is in view without scrolling the table sideways.
      meta: { align: "start", sort: "flags", sortLabel: "Sort by number of flags" },
    }),
    helper.accessor("total_balance", {
      id: "balance",
      header: "Balance",
      cell: (info) => (
        <span className="font-medium tabular-nums">
          {formatMoney(info.getValue(), info.row.original.currency)}
        </span>
      ),
      meta: figure("balance", "balance"),
    }),
    thirtyDayColumn("deposits", "Deposits", "deposits"),
    thirtyDayColumn("withdrawals", "Withdrawals", "withdrawals"),
    thirtyDayColumn("net_deposits", "Net deposits", "net deposits"),
    thirtyDayColumn("ggr", "GGR", "GGR (gross gaming revenue)"),
    helper.accessor("pending_withdrawals", {
      id: "pending",
      header: "Pending",
      cell: (info) => <PendingCell player={info.row.original} />,
      meta: figure("pending", "number of pending withdrawals"),
    }),
    helper.accessor("days_since_last_deposit", {
      id: "last_deposit",
      header: "Last deposit",
      cell: (info) => <span className="whitespace-nowrap">{daysAgo(info.getValue())}</span>,
      meta: figure("last_deposit", "days since the last deposit"),
    }),
    helper.accessor("days_since_last_activity", {
      id: "last_activity",
      header: "Last activity",
      cell: (info) => <span className="whitespace-nowrap">{daysAgo(info.getValue())}</span>,
      meta: figure("last_activity", "days since the last activity"),
    }),
  ]);
}
