"use client";

import { type UseQueryResult, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { parseAsString, parseAsStringLiteral, useQueryState } from "nuqs";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import {
  bestMatch,
  isPartialEmail,
  looksLikeId,
  moveHighlight,
  resultHref,
  searchStatus,
} from "@/features/players/client/player-search";
import {
  type PlayerSearchData,
  type PlayerSummaryData,
  playerQueries,
  type TransactionMatchData,
} from "@/features/players/client/queries";
import { useDebouncedValue } from "../../../platform/ui/hooks/use-debounced-value.ts";

const DEBOUNCE_MS = 250;
export const PLAYER_VIEWS = ["all", "mine"] as const;
export type PlayerView = (typeof PLAYER_VIEWS)[number];

/** One row of the result list: a transaction found by its id (listed first), or a player. */
export type SearchOption =
  | { kind: "transaction"; transaction: TransactionMatchData }
  | { kind: "player"; player: PlayerSummaryData };

const optionsOf = (data: PlayerSearchData | undefined): SearchOption[] => [
  ...(data?.transactions ?? []).map((transaction) => ({ kind: "transaction" as const, transaction })),
  ...(data?.players ?? []).map((player) => ({ kind: "player" as const, player })),
];

/** Opening a profile, once: after that the lookup's URL must not change any more. */
function useProfileOpener(
  setUrlQuery: (q: string | null, options: { history: "replace" }) => Promise<unknown>,
) {
  const router = useRouter();
  const leaving = useRef(false);
  const [opening, setOpening] = useState(false);
  async function open(playerId: string, q: string, transactionId?: string) {
    if (leaving.current) return;
    leaving.current = true;
    setOpening(true);
    // Write the search into this history entry first: a URL update still queued would otherwise land
    // after the navigation and pull the browser back to the lookup.
    await setUrlQuery(q || null, { history: "replace" });
    router.push(resultHref(playerId, transactionId));
  }
  return { leaving, opening, open };
}

/** What the keyboard does in the search box: move the highlight, open a result or the best match, clear. */
function useSearchKeys(s: {
  text: string;
  term: string;
  search: UseQueryResult<PlayerSearchData>;
  options: readonly SearchOption[];
  stale: boolean;
  active: number;
  setActive: (i: number) => void;
  setText: (text: string) => void;
  open: (playerId: string, transactionId?: string) => void;
  choose: (option: SearchOption) => void;
}) {
  const queryClient = useQueryClient();

  async function openBestMatch(q: string) {
    let result = s.term === q && !s.search.isPlaceholderData ? s.search.data : undefined;
    if (!result) {
      try {
        result = await queryClient.fetchQuery(playerQueries.playerSearch(q));
      } catch {
        if (looksLikeId(q)) s.open(q);
        return;
      }
    }
    const match = bestMatch(q, result.players, result.transactions);
    if (match && "open" in match) s.open(match.open, match.transactionId);
    else if (match) s.setActive(match.highlight);
  }

  return function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const next = moveHighlight(event.key, s.active, s.options.length);
    if (next !== null || event.key === "ArrowDown" || event.key === "ArrowUp") event.preventDefault();
    if (next !== null) return s.setActive(next);
    if (event.key === "Enter") {
      event.preventDefault();
      const chosen = s.active >= 0 && !s.stale ? s.options[s.active] : undefined;
      if (chosen) s.choose(chosen);
      else if (s.text.trim()) void openBestMatch(s.text.trim());
    } else if (event.key === "Escape") {
      if (s.active >= 0) s.setActive(-1);
      else s.setText("");
    }
  };
}

/** The lookup's own state: the view and the typed text (the URL keeps both), its debounced term, the highlight. */
function useSearchState(hasAssignedPlayers: boolean) {
  const [urlQuery, setUrlQuery] = useQueryState("q", parseAsString.withDefault(""));
  const [view, setView] = useQueryState("view", parseAsStringLiteral(PLAYER_VIEWS).withDefault("all"));
  const mine = hasAssignedPlayers && view === "mine";
  const [text, setText] = useState(urlQuery);
  const [active, setActive] = useState(-1);
  const term = useDebouncedValue(text.trim(), DEBOUNCE_MS);
  const listId = useId();
  return { setUrlQuery, setView, mine, text, setText, active, setActive, term, listId };
}

/** What the search's answer shows for the term: the results, whether they are stale, and the status line. */
function resultsOf(
  search: UseQueryResult<PlayerSearchData>,
  s: { term: string; text: string; mine: boolean; canSearchEmail: boolean },
) {
  const { term, mine } = s;
  const listing = Boolean(term) || mine;
  const data = listing ? search.data : undefined;
  // Without players:pii an address matches only whole: a part of one finds nobody, and the page says why.
  const partialEmail = !s.canSearchEmail && isPartialEmail(term);
  const players = data?.players ?? [];
  const options = optionsOf(data);
  const stale = term !== s.text.trim() || search.isPlaceholderData;
  const status = searchStatus({
    listing,
    failed: search.isError,
    total: data?.total,
    transactions: data?.transactions.length ?? 0,
    shown: players.length,
    partialEmail,
    mine,
    term,
  });
  return { listing, data, partialEmail, players, options, stale, status };
}

/**
 * The lookup's behaviour: the typed text, its debounced term and the view in the URL (back from a profile
 * returns to the same results), the search query, the highlighted result (a combobox's active descendant),
 * the keyboard, and opening a profile.
 */
export function usePlayerSearch({
  canSearchEmail,
  hasAssignedPlayers,
}: {
  canSearchEmail: boolean;
  hasAssignedPlayers: boolean;
}) {
  const { setUrlQuery, setView, mine, text, setText, active, setActive, term, listId } =
    useSearchState(hasAssignedPlayers);
  const opener = useProfileOpener(setUrlQuery);
  const open = (playerId: string, transactionId?: string) =>
    void opener.open(playerId, text.trim(), transactionId);
  const choose = (option: SearchOption) =>
    option.kind === "player"
      ? open(option.player.id)
      : open(option.transaction.player_id, option.transaction.id);

  const search = useQuery(mine ? playerQueries.assignedPlayers(term) : playerQueries.playerSearch(term));
  const { listing, data, partialEmail, players, options, stale, status } = resultsOf(search, {
    term,
    text,
    mine,
    canSearchEmail,
  });
  const onKeyDown = useSearchKeys({
    text,
    term,
    search,
    options,
    stale,
    active,
    setActive,
    setText,
    open,
    choose,
  });

  useEffect(() => {
    setActive(-1);
    if (opener.leaving.current) return;
    void setUrlQuery(term || null, { history: "replace" });
  }, [term, setUrlQuery, opener.leaving, setActive]);

  return {
    text,
    setText: (value: string) => {
      setText(value);
      setActive(-1);
    },
    view: (mine ? "mine" : "all") as PlayerView,
    setView: (next: PlayerView) => void setView(next === "all" ? null : next),
    mine,
    term,
    search,
    data,
    players,
    options,
    listing,
    partialEmail,
    stale,
    active,
    setActive,
    choose,
    onKeyDown,
    busy: (search.isFetching && Boolean(term)) || opener.opening,
    expanded: listing && options.length > 0,
    listId,
    activeId: active >= 0 && options[active] ? `${listId}-${active}` : undefined,
    status,
  };
}
