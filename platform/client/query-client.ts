import { QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api-client.ts";

/**
 * How long fetched data counts as fresh. It also keeps the server-rendered first view from being fetched
 * again the moment the browser hydrates it (the server's read is already in the audit trail).
 */
export const STALE_TIME_MS = 30_000;

/** The one set of query defaults, for the server's prefetch and the browser's cache alike. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: STALE_TIME_MS,
        refetchOnWindowFocus: false,
        // Retry what may pass on a second try (network, 5xx); a 4xx answer will not change.
        retry: (failures, error) =>
          failures < 2 && (!(error instanceof ApiRequestError) || error.status === 0 || error.status >= 500),
      },
    },
  });
}
