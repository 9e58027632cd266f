import { type DehydratedState, dehydrate } from "@tanstack/react-query";
import { createLoader } from "nuqs/server";
import { GET as profileRoute } from "@/app/api/v1/players/[playerId]/route";
import { GET as transactionsRoute } from "@/app/api/v1/players/[playerId]/transactions/route";
import { apiUrl } from "@/lib/client/api-client";
import { playerPaths, queries } from "@/lib/client/queries";
import { makeQueryClient } from "@/lib/client/query-client";
import {
  timeZoneSearchParams,
  toTransactionApiQuery,
  transactionSearchParams,
} from "@/lib/client/transaction-url-state";
import type { PlayerProfileData, TransactionListData } from "@/lib/client/wire";
import { apiAsUser, type InProcessAnswer, type PageUser } from "@/lib/server/in-process-api";

type SearchParams = Record<string, string | string[] | undefined>;

// The same parsers the page's client components read the URL with: an unusable value falls back alike.
const loadViewState = createLoader({ ...transactionSearchParams, ...timeZoneSearchParams });

function dataOrThrow<T>(answer: InProcessAnswer<T>): T {
  // A failed read is left out of the cache: the browser asks again and shows the error (or "not found").
  if (!answer.ok) throw new Error(`The first view's read answered ${answer.status}`);
  return answer.data;
}

/**
 * Whether the page is rendered for a document load (open, reload, shared link) rather than for a client
 * navigation. The nuqs adapter sends every change of the URL's filters through Next's router (not shallow),
 * so each one also renders this page on the server, while the browser's query for the new filters is
 * already under way: reading there too would read, and audit, every filter change twice. Browsers mark
 * their navigations' fetches `Sec-Fetch-Dest: empty`; a client that sends no such header gets the view.
 */
export function isDocumentLoad(pageHeaders: Headers): boolean {
  const dest = pageHeaders.get("sec-fetch-dest");
  return dest === null || dest === "document";
}

/**
 * The player page's first view, read on the server under the signed-in user's credentials and handed to
 * the browser's query cache under the keys its components use: the profile and the first page of
 * transactions for the filters in the URL. With `tz=local` nothing is read here: the day bounds and every
 * date shown depend on the browser's time zone, which the server cannot know.
 */
export async function prefetchFirstView(
  playerId: string,
  searchParams: SearchParams,
  user: PageUser,
  pageHeaders: Headers,
): Promise<DehydratedState> {
  const queryClient = makeQueryClient();
  const { tz, ...state } = loadViewState(searchParams);
  if (tz !== "utc") return dehydrate(queryClient);

  const read = await apiAsUser(user, pageHeaders);
  const params = { playerId };
  const view = { ...state, page: Math.max(1, state.page) };
  const invalidRange = Boolean(view.from && view.to && view.from > view.to);
  const transactionsQuery = toTransactionApiQuery(view, tz);

  await Promise.all([
    queryClient.prefetchQuery({
      queryKey: queries.playerProfile(playerId).queryKey,
      queryFn: async () =>
        dataOrThrow(
          await read<PlayerProfileData, typeof params>({
            handler: profileRoute,
            params,
            path: apiUrl(playerPaths.profile(playerId)),
          }),
        ),
    }),
    invalidRange
      ? null
      : queryClient.prefetchQuery({
          queryKey: queries.transactions(playerId, transactionsQuery).queryKey,
          queryFn: async () =>
            dataOrThrow(
              await read<TransactionListData, typeof params>({
                handler: transactionsRoute,
                params,
                path: apiUrl(playerPaths.transactions(playerId), transactionsQuery),
              }),
            ),
        }),
  ]);
  return dehydrate(queryClient);
}
