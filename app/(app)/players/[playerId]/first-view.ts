import { type DehydratedState, dehydrate } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import {
  playerSectionSearchParams,
  resolvePlayerSection,
  summaryPeriodSearchParams,
} from "@/features/players/client/player-sections";
import {
  type PlayerPeriodSummaryData,
  type PlayerProfileData,
  playerQueries,
} from "@/features/players/client/queries";
import { playerSummaryRead } from "@/features/players/reads/player-figures";
import { playerProfileRead } from "@/features/players/reads/player-profile";
import { type TransactionListData, transactionQueries } from "@/features/transactions/client/queries";
import {
  toTransactionApiQuery,
  transactionSearchParams,
} from "@/features/transactions/client/transaction-url-state";
import { playerTransactionsRead } from "@/features/transactions/reads/player-transactions";
import { makeQueryClient } from "@/platform/client/query-client";
import { WIRE_DECIMALS } from "@/platform/client/wire-decimals";
import { timeZoneSearchParams } from "@/platform/format/days";
import { createServerCaller, type ServerCallerOptions } from "@/platform/reads/server-caller";

type SearchParams = Record<string, string | string[] | undefined>;

// The same parsers the page's client components read the URL with: an unusable value falls back alike.
const loadViewState = createLoader({
  ...transactionSearchParams,
  ...timeZoneSearchParams,
  ...playerSectionSearchParams,
  ...summaryPeriodSearchParams,
});

/** The query string as the browser's `useSearchParams` sees it (a repeated name keeps every value). */
function toSearch(searchParams: SearchParams): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, v);
  }
  return search;
}

/**
 * The player page's first view, read on the server as the signed-in user (platform/reads/server-caller.ts: the
 * API's own read definitions, scopes, masking and audit rows) and handed to the browser's query cache under
 * the keys its components use, in the shape the browser's fetcher gives: the profile, the first page of
 * transactions for the filters in the URL and, when the page opens on the Overview, the period summary it
 * shows (no loading state there; no summary is read, nor audited, for a page opened on another section). A
 * read that fails is left out of the cache (prefetchQuery keeps no error): the browser asks again and shows
 * the error, or "not found". With `tz=local` nothing is read here: the day bounds and every date shown depend
 * on the browser's time zone, which the server cannot know.
 */
export async function prefetchFirstView(
  playerId: string,
  searchParams: SearchParams,
  user: ServerCallerOptions,
  { audit }: { audit: boolean },
): Promise<DehydratedState> {
  const queryClient = makeQueryClient();
  const { tz, section: requested, period, ...state } = loadViewState(searchParams);
  if (tz !== "utc") return dehydrate(queryClient);

  const caller = await createServerCaller(user);
  const params = { playerId };
  const view = { ...state, page: Math.max(1, state.page) };
  const invalidRange = Boolean(view.from && view.to && view.from > view.to);
  const transactionsQuery = toTransactionApiQuery(view, tz);
  const section = resolvePlayerSection(requested, { audit, search: toSearch(searchParams) });

  await Promise.all([
    queryClient.prefetchQuery({
      queryKey: playerQueries.playerProfile(playerId).queryKey,
      queryFn: () =>
        caller.read<PlayerProfileData>(playerProfileRead, { params }, WIRE_DECIMALS.playerProfile),
    }),
    invalidRange
      ? null
      : queryClient.prefetchQuery({
          queryKey: transactionQueries.transactions(playerId, transactionsQuery).queryKey,
          queryFn: () =>
            caller.read<TransactionListData>(
              playerTransactionsRead,
              { params, query: transactionsQuery },
              WIRE_DECIMALS.transactionList,
            ),
        }),
    section === "overview"
      ? queryClient.prefetchQuery({
          queryKey: playerQueries.playerSummary(playerId, period).queryKey,
          queryFn: () =>
            caller.read<PlayerPeriodSummaryData>(
              playerSummaryRead,
              { params, query: new URLSearchParams({ period }) },
              WIRE_DECIMALS.playerSummary,
            ),
        })
      : null,
  ]);
  return dehydrate(queryClient);
}
