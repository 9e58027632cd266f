"use client";

import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, LockKeyhole, Search, SearchX } from "lucide-react";
import { useRouter } from "next/navigation";
import { parseAsString, parseAsStringLiteral, useQueryState } from "nuqs";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { apiGet } from "@/lib/client/api-client";
import { queries, SEARCH_PAGE_SIZE } from "@/lib/client/queries";
import type { PlayerSearchData, PlayerSummaryData } from "@/lib/client/wire";
import { cn } from "@/lib/cn";
import { formatDate } from "@/lib/format/dates";
import { formatCount, formatMoney, isIsoCurrency } from "@/lib/format/money";
import { useDebouncedValue } from "@/lib/hooks/use-debounced-value";
import { ErrorState } from "../error-state.tsx";
import { BlockedBadge, KycBadge, WithdrawalBadge } from "../status-badges.tsx";
import { Skeleton } from "../ui/skeleton.tsx";

const DEBOUNCE_MS = 250;

/** Something typed that can only be an id: no spaces, no @, at least one digit. */
const looksLikeId = (q: string) => /^[^\s@]*\d[^\s@]*$/.test(q);

/** The signed-in VIP manager's own players (`assigned=me`), optionally narrowed by q. */
const assignedPlayers = (q: string) =>
  queryOptions({
    queryKey: ["players", "assigned", q],
    queryFn: ({ signal }) =>
      apiGet<PlayerSearchData>(
        "/players",
        new URLSearchParams({ assigned: "me", ...(q ? { q } : {}), limit: String(SEARCH_PAGE_SIZE) }),
        signal,
      ),
    placeholderData: keepPreviousData,
  });

const VIEWS = ["all", "mine"] as const;

export function PlayerSearch({
  canSearchEmail,
  hasAssignedPlayers,
}: {
  /** Whether the role has players:pii; without it the API does not match e-mail, and the page says so. */
  canSearchEmail: boolean;
  hasAssignedPlayers: boolean;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  // The search term lives in the URL (?q=…) so that back from a profile returns to the same results.
  const [urlQuery, setUrlQuery] = useQueryState("q", parseAsString.withDefault(""));
  const [view, setView] = useQueryState("view", parseAsStringLiteral(VIEWS).withDefault("all"));
  const mine = hasAssignedPlayers && view === "mine";
  const [text, setText] = useState(urlQuery);
  const [active, setActive] = useState(-1);
  const [opening, setOpening] = useState(false);
  const term = useDebouncedValue(text.trim(), DEBOUNCE_MS);
  const listId = useId();
  const statusId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  const search = useQuery(mine ? assignedPlayers(term) : queries.playerSearch(term));
  const listing = Boolean(term) || mine;
  const data = listing ? search.data : undefined;
  // Without players:pii the API leaves e-mail out of the match: an address finds nobody, and the page says why.
  const emailNeedsPii = !canSearchEmail && term.includes("@");
  const players = data?.players ?? [];
  const stale = term !== text.trim() || search.isPlaceholderData;

  const openingRef = useRef(false);
  useEffect(() => {
    setActive(-1);
    if (openingRef.current) return; // leaving for a profile: this page's URL must not change any more
    void setUrlQuery(term || null, { history: "replace" });
  }, [term, setUrlQuery]);

  async function open(playerId: string) {
    if (openingRef.current) return;
    openingRef.current = true;
    setOpening(true);
    // Write the search into this history entry first: a URL update still queued would otherwise land
    // after the navigation and pull the browser back to the lookup.
    await setUrlQuery(text.trim() || null, { history: "replace" });
    router.push(`/players/${encodeURIComponent(playerId)}`);
  }

  /** Enter without a highlighted result: an exact id, a single match, or a direct id opens a profile. */
  async function openBestMatch() {
    const q = text.trim();
    if (!q) return;
    let result: PlayerSearchData | undefined =
      term === q && !search.isPlaceholderData ? search.data : undefined;
    if (!result) {
      try {
        result = await queryClient.fetchQuery(queries.playerSearch(q));
      } catch {
        if (looksLikeId(q)) void open(q);
        return;
      }
    }
    const exact = result.players.find((p) => p.id.toLowerCase() === q.toLowerCase());
    if (exact) return void open(exact.id);
    if (result.players.length === 1 && result.players[0]) return void open(result.players[0].id);
    if (result.players.length === 0 && looksLikeId(q)) return void open(q); // the profile says "not found"
    if (result.players.length > 0) setActive(0);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (players.length) setActive((i) => (i + 1) % players.length);
        break;
      case "ArrowUp":
        event.preventDefault();
        if (players.length) setActive((i) => (i <= 0 ? players.length - 1 : i - 1));
        break;
      case "Home":
      case "End":
        if (players.length && active >= 0) {
          event.preventDefault();
          setActive(event.key === "Home" ? 0 : players.length - 1);
        }
        break;
      case "Enter": {
        event.preventDefault();
        const chosen = active >= 0 && !stale ? players[active] : undefined;
        if (chosen) void open(chosen.id);
        else void openBestMatch();
        break;
      }
      case "Escape":
        if (active >= 0) setActive(-1);
        else setText("");
        break;
    }
  }

  const expanded = listing && players.length > 0;
  const activeId = active >= 0 && players[active] ? `${listId}-${active}` : undefined;

  let status = "";
  if (!listing) status = "";
  else if (search.isError) status = "The search failed.";
  else if (!data) status = "Searching…";
  else if (emailNeedsPii && data.total === 0) status = "E-mail search needs the players:pii scope.";
  else if (data.total === 0)
    status = mine && !term ? "No players are assigned to you." : `No players match “${term}”.`;
  else if (data.total > players.length)
    status = `Showing the first ${players.length} of ${formatCount(data.total)} players. Type more to narrow the search.`;
  else status = `${formatCount(data.total)} ${data.total === 1 ? "player" : "players"} found.`;

  return (
    <div>
      {hasAssignedPlayers ? (
        <ViewSwitch view={mine ? "mine" : "all"} onChange={(v) => void setView(v === "all" ? null : v)} />
      ) : null}
      <label htmlFor="player-search" className="block text-sm font-medium text-slate-800">
        {mine
          ? "Filter my players by id or name"
          : canSearchEmail
            ? "Player id, name or email"
            : "Player id or name"}
      </label>
      <div className="relative mt-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute left-3 top-3 size-5 text-slate-500"
        />
        <input
          ref={inputRef}
          id="player-search"
          type="search"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          aria-describedby={statusId}
          autoComplete="off"
          spellCheck={false}
          // biome-ignore lint/a11y/noAutofocus: the page exists to search; focus belongs in the search box
          autoFocus
          placeholder={
            canSearchEmail ? "e.g. P000007, Silva or helena.silva7@example.com" : "e.g. P000007 or Silva"
          }
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          className="block h-12 w-full rounded-lg border border-slate-300 bg-white pl-10 pr-10 text-base text-slate-900 shadow-xs placeholder:text-slate-500 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600"
        />
        {(search.isFetching && term) || opening ? (
          <LoaderCircle
            aria-hidden="true"
            className="absolute right-3 top-3.5 size-5 animate-spin text-slate-500"
          />
        ) : null}
      </div>

      <p id={statusId} aria-live="polite" className="mt-2 min-h-5 text-sm text-slate-600">
        {status}
      </p>

      {emailNeedsPii && data ? (
        <div
          data-testid="email-needs-pii"
          className="mt-3 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
        >
          <LockKeyhole aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p>
            Searching by e-mail address needs the <code className="font-mono">players:pii</code> scope, which
            your role does not have, so “{term}” was matched against player ids and names only. Search by
            player id or name instead.
          </p>
        </div>
      ) : null}

      {!listing ? (
        <p className="mt-4 rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          Start typing to see matching players. Enter a full player id to open the profile directly.
        </p>
      ) : search.isError ? (
        <div className="mt-3 rounded-lg border border-slate-200 bg-white">
          <ErrorState
            title="The search failed"
            error={search.error}
            onRetry={() => void search.refetch()}
            retrying={search.isFetching}
          />
        </div>
      ) : !data ? (
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
      ) : data.total === 0 && !emailNeedsPii ? (
        <div className="mt-3 flex flex-col items-center gap-2 rounded-lg border border-slate-200 bg-white p-8 text-center">
          <SearchX aria-hidden="true" className="size-6 text-slate-500" />
          <p className="text-slate-700">
            {mine && !term
              ? "No players are assigned to you."
              : `No ${mine ? "player of yours" : "player"} has ${canSearchEmail ? "an id, name or email" : "an id or name"} containing “${term}”.`}
          </p>
        </div>
      ) : null}

      <div
        id={listId}
        role="listbox"
        aria-label={mine ? "My players" : "Matching players"}
        hidden={!expanded}
        className={cn(
          "mt-3 divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-xs",
          stale && "opacity-70",
        )}
      >
        {players.map((p, i) => (
          <SearchResult
            key={p.id}
            id={`${listId}-${i}`}
            player={p}
            active={i === active}
            onSelect={() => void open(p.id)}
            onHover={() => setActive(i)}
          />
        ))}
      </div>
    </div>
  );
}

function SearchResult({
  id,
  player,
  active,
  onSelect,
  onHover,
}: {
  id: string;
  player: PlayerSummaryData;
  active: boolean;
  onSelect: () => void;
  onHover: () => void;
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
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {player.name} <span className="ml-1 font-mono text-sm font-normal text-slate-600">{player.id}</span>
        </p>
        <p className="truncate text-sm text-slate-600">
          {player.email ?? "No email"}
          {player.language ? <> · {player.language}</> : null}
        </p>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
          <div>
            <dt className="inline">Registered </dt>
            <dd className="inline text-slate-800">{formatDate(player.registration_date, "utc")}</dd>
          </div>
          <div>
            <dt className="inline">Last login </dt>
            <dd className="inline text-slate-800">
              {player.last_login ? formatDate(player.last_login, "utc") : "never"}
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
    </div>
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

function ViewSwitch({ view, onChange }: { view: "all" | "mine"; onChange: (view: "all" | "mine") => void }) {
  const options = [
    { value: "all", label: "All players" },
    { value: "mine", label: "My players" },
  ] as const;
  return (
    <fieldset className="mb-4 inline-flex rounded-lg border border-slate-300 bg-white p-0.5">
      <legend className="sr-only">Which players to list</legend>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={view === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            "rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
            view === o.value ? "bg-indigo-600 text-white" : "text-slate-700 hover:bg-slate-100",
          )}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}
