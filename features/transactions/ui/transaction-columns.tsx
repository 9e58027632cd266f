import { createColumnHelper } from "@tanstack/react-table";
import { ChevronDown } from "lucide-react";
import { createContext, useContext } from "react";
import { moneyMoved } from "@/features/transactions/client/moved-money";
import type { TransactionData } from "@/features/transactions/client/queries";
import { TRANSACTION_STATUS_LABELS } from "@/features/transactions/client/transaction-labels";
import type {
  features,
  TransactionColumnMeta,
  TransactionColumns,
} from "@/features/transactions/client/use-transactions-table";
import { formatDateTime, timeZoneLabel } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";
import { EVENT_TYPE_LABELS } from "@/platform/format/labels";
import { directionOf, formatMoney } from "@/platform/format/money";
import { cn } from "@/platform/ui/cn";
import { Badge } from "../../../platform/ui/badge.tsx";

const helper = createColumnHelper<typeof features, TransactionData>();

const ONE_LINE: TransactionColumnMeta = { align: "start", wrap: false };
const WRAPS: TransactionColumnMeta = { align: "start", wrap: true };

/** A heading's alignment, from its column's meta (headings never wrap). */
export function headerClass(meta: TransactionColumnMeta | undefined): string {
  return cn(meta?.align === "end" && "text-right");
}

/** A cell's alignment and wrapping, from its column's meta. */
export function cellClass(meta: TransactionColumnMeta | undefined): string {
  return cn(headerClass(meta), meta?.wrap === false && "whitespace-nowrap");
}

/** The date once, on one line: created and completed instants are in the row's details. */
function DateCell({ iso, tz }: { iso: string; tz: TimeZoneChoice }) {
  return (
    <time dateTime={iso} className="tabular-nums">
      {formatDateTime(iso, tz)}
    </time>
  );
}

/** Which rows show their details: the table view provides it, the details column's buttons use it. */
export const RowDetailsContext = createContext<{
  isOpen: (id: string) => boolean;
  toggle: (id: string) => void;
}>({
  isOpen: () => false,
  toggle: () => {},
});

export const detailsId = (transactionId: string) => `transaction-details-${transactionId}`;

function DetailsToggle({ id }: { id: string }) {
  const { isOpen, toggle } = useContext(RowDetailsContext);
  const open = isOpen(id);
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={open ? detailsId(id) : undefined}
      aria-label={`Details of transaction ${id}`}
      onClick={() => toggle(id)}
      className="inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <ChevronDown aria-hidden="true" className={cn("size-4 transition-transform", open && "rotate-180")} />
    </button>
  );
}

/**
 * A signed amount, green in and red out. A failed or cancelled transaction moved no money: its amount is muted and
 * struck through (the status column's badge says why), and a screen reader hears that it did not move.
 */
export function AmountText({
  amount,
  currency,
  status,
}: {
  amount: string;
  currency: string;
  status: TransactionData["status"];
}) {
  const direction = directionOf(amount);
  const moved = moneyMoved(status);
  return (
    <span
      data-moved={moved}
      className={cn(
        "font-medium tabular-nums",
        moved === "never"
          ? "text-slate-500 line-through decoration-slate-400"
          : [
              direction === "in" && "text-emerald-700",
              direction === "out" && "text-red-700",
              direction === "none" && "text-slate-700",
            ],
      )}
    >
      {formatMoney(amount, currency, { signed: true })}
      {moved === "never" ? (
        <span className="sr-only">
          {" "}
          ({TRANSACTION_STATUS_LABELS[status].label.toLowerCase()}: no money moved)
        </span>
      ) : null}
    </span>
  );
}

const missing = <span className="text-slate-500">—</span>;

/** Completed reads as plain text (most rows); the other states as badges with their word, never colour alone. */
export function StatusText({ status }: { status: TransactionData["status"] }) {
  const { label, tone } = TRANSACTION_STATUS_LABELS[status];
  return status === "completed" ? (
    <span className="text-slate-700">{label}</span>
  ) : (
    <Badge tone={tone}>{label}</Badge>
  );
}

/** The columns of the transactions table, one compact row each; dates headed and shown in the chosen time zone. */
export function transactionColumns(tz: TimeZoneChoice): TransactionColumns {
  const zone = timeZoneLabel(tz);
  return helper.columns([
    helper.accessor("date", {
      header: `Date (${zone})`,
      cell: (info) => <DateCell iso={info.getValue()} tz={tz} />,
      meta: { ...ONE_LINE, sort: { desc: "date_desc", asc: "date_asc" } },
    }),
    helper.accessor("event_type", {
      header: "Event type",
      cell: (info) => EVENT_TYPE_LABELS[info.getValue()] ?? info.getValue(),
      meta: ONE_LINE,
    }),
    helper.accessor("event_name", { header: "Event name", meta: WRAPS }),
    helper.accessor("event_note", {
      header: "Note",
      cell: (info) => info.getValue() ?? missing,
      meta: WRAPS,
    }),
    helper.accessor("amount", {
      header: "Amount",
      cell: (info) => (
        <AmountText
          amount={info.getValue()}
          currency={info.row.original.currency}
          status={info.row.original.status}
        />
      ),
      meta: { align: "end", wrap: false, sort: { desc: "amount_desc", asc: "amount_asc", hint: "by size" } },
    }),
    helper.accessor("payment_method", {
      header: "Payment method",
      cell: (info) => info.getValue() ?? missing,
      meta: WRAPS,
    }),
    helper.accessor("created_by", { header: "Created by", meta: ONE_LINE }),
    helper.accessor("status", {
      id: "status",
      header: "Status",
      cell: (info) => <StatusText status={info.getValue()} />,
      meta: ONE_LINE,
    }),
    helper.display({
      id: "details",
      header: () => <span className="sr-only">Details</span>,
      cell: (info) => <DetailsToggle id={info.row.original.id} />,
      meta: { align: "end", wrap: false },
    }),
  ]);
}
