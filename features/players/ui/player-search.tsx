"use client";

import { LoaderCircle, LockKeyhole, ReceiptText, Search, SearchX } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { noMatchText, searchLabel } from "@/features/players/client/player-search";
import type { PlayerSummaryData, TransactionMatchData } from "@/features/players/client/queries";
import { usePlayerSearch } from "@/features/players/client/use-player-search";
import { BlockedBadge, KycBadge, WithdrawalBadge } from "@/features/transactions/client";
import { formatDate, formatDateTime } from "@/platform/format/dates";
import { EVENT_TYPE_LABELS } from "@/platform/format/labels";
import { formatMoney, isIsoCurrency } from "@/platform/format/money";
import { cn } from "@/platform/ui/cn";
import { ErrorState } from "../../../platform/ui/error-state.tsx";
import { SegmentedControl } from "../../../platform/ui/segmented-control.tsx";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";

const VIEW_OPTIONS = [
  { value: "all", label: "All players" },
  { value: "mine", label: "My players" },
] as const;

type SearchState = ReturnType<typeof usePlayerSearch>;

export function PlayerSearch({
  canSearchEmail,
  hasAssignedPlayers,
}: {
  /** Whether the role has players:pii; without it the API does not match e-mail, and the page says so. */
  canSearchEmail: boolean;
  hasAssignedPlayers: boolean;
}) {
  const s = usePlayerSearch({ canSearchEmail, hasAssignedPlayers });
  const statusId = useId();
  return (
    <div>
      {hasAssignedPlayers ? (
        <SegmentedControl
          legend="Which players to list"
          name="player-view"
          options={VIEW_OPTIONS}
          value={s.view}
          onChange={s.setView}
          className="mb-4"
        />
      ) : null}
      <SearchInput s={s} canSearchEmail={canSearchEmail} statusId={statusId} />
      <p id={statusId} aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-600">
        {s.status}
      </p>
      <SearchOutcome s={s} canSearchEmail={canSearchEmail} />
      <div
        id={s.listId}
        role="listbox"
        aria-label={s.mine ? "My players" : "Matching players"}
        hidden={!s.expanded}
        className={cn(
          "mt-3 divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xs",
          s.stale && "opacity-70",
        )}
      >
        {s.options.map((option, i) => (
          <SearchOptionRow
            key={option.kind === "player" ? option.player.id : `transaction:${option.transaction.id}`}
            id={`${s.listId}-${i}`}
            active={i === s.active}
            onSelect={() => s.choose(option)}
            onHover={() => s.setActive(i)}
          >
            {option.kind === "player" ? (
              <PlayerResult player={option.player} />
            ) : (
              <TransactionResult transaction={option.transaction} />
            )}
          </SearchOptionRow>
        ))}
      </div>
    </div>
  );
}

function SearchInput({
  s,
  canSearchEmail,
  statusId,
}: {
  s: SearchState;
  canSearchEmail: boolean;
  statusId: string;
}) {
  return (
    <>
      <label htmlFor="player-search" className="block text-sm font-medium text-slate-800">
        {searchLabel({ mine: s.mine, canSearchEmail })}
      </label>
      <div className="relative mt-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute left-3 top-3 size-5 text-slate-500"
        />
        <input
          id="player-search"
          type="search"
          role="combobox"
          aria-expanded={s.expanded}
          aria-controls={s.listId}
          aria-autocomplete="list"
          aria-activedescendant={s.activeId}
          aria-describedby={statusId}
          autoComplete="off"
          spellCheck={false}
          // biome-ignore lint/a11y/noAutofocus: the page exists to search; focus belongs in the search box
          autoFocus
          placeholder={
            canSearchEmail
              ? "e.g. P000007, zoe cote or helena.silva7@example.com"
              : "e.g. P000007, zoe cote or +44 7700 900189"
          }
          value={s.text}
          onChange={(e) => s.setText(e.target.value)}
          onKeyDown={s.onKeyDown}
          className="block h-12 w-full rounded-lg border border-slate-300 bg-white pl-10 pr-10 text-base text-slate-900 shadow-xs placeholder:text-slate-500 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600"
        />
        {s.busy ? (
          <LoaderCircle
            aria-hidden="true"
            className="absolute right-3 top-3.5 size-5 animate-spin text-slate-500"
          />
        ) : null}
      </div>
    </>
  );
}

/** Everything but the results: the e-mail notice, the hint before typing, the failure, loading, no match. */
function SearchOutcome({ s, canSearchEmail }: { s: SearchState; canSearchEmail: boolean }) {
  const { data, mine, term } = s;
  return (
    <>
      {s.partialEmail && data ? (
        <div
          data-testid="contact-exact-notice"
          className="mt-3 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
        >
          <LockKeyhole aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p>
            E-mail addresses and phone numbers are matched only in full: you see them masked, so a part of one
            finds nobody. Type the whole address (like name@example.com) or number, or search by name or
            player ID.
          </p>
        </div>
      ) : null}
      {!s.listing ? (
        <p className="mt-4 rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          Start typing to see matching players. Enter a full player id to open the profile directly.
        </p>
      ) : s.search.isError ? (
        <div className="mt-3 rounded-lg border border-slate-200 bg-white">
          <ErrorState title="The search failed" query={s.search} />
        </div>
      ) : !data ? (
        <ResultsSkeleton />
      ) : data.total === 0 && data.transactions.length === 0 && !s.partialEmail ? (
        <div className="mt-3 flex flex-col items-center gap-2 rounded-lg border border-slate-200 bg-white p-8 text-center">
          <SearchX aria-hidden="true" className="size-6 text-slate-500" />
          <p className="text-slate-700">{noMatchText({ mine, term, canSearchEmail })}</p>
        </div>
      ) : null}
    </>
  );
}

function ResultsSkeleton() {
  return (
    <ul
      aria-hidden="true"
      className="mt-3 divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
    >
      {[0, 1, 2].map((i) => (
        <li key={i} className="flex items-center justify-between gap-4 px-4 py-3">
          <span className="space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-56" />
          </span>
          <Skeleton className="h-5 w-24" />
        </li>
      ))}
    </ul>
  );
}

/** One option of the listbox; what it shows is its children. */
function SearchOptionRow({
  id,
  active,
  onSelect,
  onHover,
  children,
}: {
  id: string;
  active: boolean;
  onSelect: () => void;
  onHover: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (active) ref.current?.scrollIntoView({ block: "nearest" });
  }, [active]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard selection happens in the combobox input (aria-activedescendant)
    <div
      ref={ref}
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={active}
      onClick={onSelect}
      onMouseMove={onHover}
      className={cn(
        "flex cursor-pointer flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between",
        active ? "bg-indigo-50 outline-2 -outline-offset-2 outline-indigo-600" : "hover:bg-slate-50",
      )}
    >
      {children}
    </div>
  );
}

/** A transaction found by its id: it opens in its player's transactions, filtered to it. */
function TransactionResult({ transaction: t }: { transaction: TransactionMatchData }) {
  return (
    <div className="flex min-w-0 items-start gap-3" data-testid="transaction-match">
      <ReceiptText aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-indigo-700" />
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          Transaction <span className="font-mono text-sm">{t.id}</span>
        </p>
        <p className="text-sm text-slate-600">
          {EVENT_TYPE_LABELS[t.event_type] ?? t.event_type} on {formatDateTime(t.date, "utc")} UTC · player{" "}
          {t.player_name} <span className="font-mono">{t.player_id}</span>
        </p>
      </div>
    </div>
  );
}

/**
 * A player, with what tells namesakes apart: registration, currency and language, the phone number's country
 * code and last two digits (masked or not), the last activity.
 */
function PlayerResult({ player }: { player: PlayerSummaryData }) {
  return (
    <>
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {player.name} <span className="ml-1 font-mono text-sm font-normal text-slate-600">{player.id}</span>
        </p>
        <p className="text-sm break-words text-slate-600">
          {player.email ?? "No email"}
          {player.phone ? <> · {player.phone}</> : null}
          {player.language ? <> · {player.language}</> : null}
        </p>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
          <div>
            <dt className="inline">Registered </dt>
            <dd className="inline text-slate-800">{formatDate(player.registration_date, "utc")}</dd>
          </div>
          <div>
            <dt className="inline">Last active </dt>
            <dd className="inline text-slate-800">
              {player.last_activity ? formatDate(player.last_activity, "utc") : "never"}
            </dd>
          </div>
        </dl>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 sm:flex-col sm:items-end">
        <p className="text-sm font-medium tabular-nums text-slate-900">
          <span className="sr-only">Balance </span>
          {formatMoney(String(player.total_balance), player.currency)}
          {!isIsoCurrency(player.currency) ? null : (
            <span className="ml-1.5 rounded-sm bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
              {player.currency}
            </span>
          )}
        </p>
        <StatusWhenItMatters player={player} />
      </div>
    </>
  );
}

/** Only what changes how a player can be helped: blocked, withdrawals held, KYC not approved. */
function StatusWhenItMatters({ player }: { player: PlayerSummaryData }) {
  const withdrawalsRestricted = player.withdrawal_status !== null && player.withdrawal_status !== "allowed";
  const kycOpen = player.kyc_status !== "approved";
  if (!player.blocked && !withdrawalsRestricted && !kycOpen) return null;
  return (
    <div className="flex flex-wrap gap-1.5 sm:justify-end">
      {player.blocked ? <BlockedBadge blocked /> : null}
      {withdrawalsRestricted && !player.blocked ? (
        <WithdrawalBadge status={player.withdrawal_status} />
      ) : null}
      {kycOpen ? <KycBadge status={player.kyc_status} /> : null}
    </div>
  );
}
