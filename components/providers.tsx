"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { type ReactNode, useState } from "react";
import { ApiRequestError } from "@/lib/client/api-client";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retry what may pass on a second try (network, 5xx); a 4xx answer will not change.
        retry: (failures, error) =>
          failures < 2 && (!(error instanceof ApiRequestError) || error.status === 0 || error.status >= 500),
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/*
        Not shallow: each URL change also goes through Next's router, so every history entry records the
        search it shows. A shallow entry records its predecessor's, and after a reload Next refetches such an
        entry on back/forward; a second step taken during that refetch was lost (URL and filters disagreed).
      */}
      <NuqsAdapter defaultOptions={{ shallow: false }}>{children}</NuqsAdapter>
    </QueryClientProvider>
  );
}
